import type { PrivacyCopy } from './en';

export const nl = {
  title: 'Privacyverklaring',
  updated: 'Laatst bijgewerkt: {date}',
  intro:
    '{brand} bewaart zo weinig mogelijk gegevens over je. Hier lees je wat we bewaren als je je aanmeldt voor de wachtlijst, waarom en hoe lang, en wat je van ons mag vragen.',
  summary: {
    title: 'In het kort',
    items: {
      data: 'We bewaren je e‑mailadres en wat we nodig hebben om ermee te werken, zoals je taal en wanneer je je aanmeldde.',
      purpose:
        'We gebruiken het alleen om je aanmelding te bevestigen en je te laten weten wanneer {brand} van start gaat: geen nieuwsbrief, geen reclame.',
      retention:
        'Je adres wordt verwijderd zodra we je hebben laten weten dat we van start zijn, of als je de wachtlijst verlaat, uiterlijk na 12 maanden; bevestig je niet, dan na {days} dagen.',
      storage:
        'Het staat bij Amazon Web Services, in onze opdracht, en we delen het met niemand anders. Geen cookies, geen trackers.',
      rights:
        'Je verlaat de wachtlijst met één klik vanuit elke mail van ons, of met het formulier hieronder; voor de rest mail je ons via {email}.',
    },
  },
  controller: {
    title: 'Wie is verantwoordelijk?',
    body: '{controller} is verantwoordelijk voor de persoonsgegevens waar deze verklaring over gaat (de ‘verwerkingsverantwoordelijke’ volgens de AVG). Je bereikt ons via {email}.',
    postalAddress: 'Ons postadres: {address}.',
    kvkNumber: 'Ingeschreven bij de Kamer van Koophandel onder nummer {number}.',
  },
  data: {
    title: 'Wat we bewaren',
    lead: 'Als je je aanmeldt voor de wachtlijst, bewaren we:',
    items: {
      email: 'je e‑mailadres, zoals je het hebt ingetypt',
      language: 'de taal van je aanmelding (Nederlands of Engels), zodat we je in die taal mailen',
      createdAt: 'de datum en het tijdstip van je aanmelding',
      consentVersion: 'met welke versie van de tekst bij het aanmeldformulier je hebt ingestemd',
      confirmation:
        'of je je aanmelding hebt bevestigd, en zo ja: wanneer, en welke versie van die tekst je toen hebt bevestigd',
      mails: 'wanneer we je een bevestigingsmail hebben gestuurd, en hoeveel (hooguit {max})',
      tokenHash:
        'een onomkeerbare vingerafdruk van de code in elke bevestigingslink die we je stuurden, om een link te herkennen als je hem gebruikt. De link zelf bewaren we nooit, dus met wat wij bewaren kan niemand iets bevestigen',
      undeliverable:
        'als een mail aan jou definitief niet bezorgd kon worden, of als je een mail van ons als spam hebt gemarkeerd: dát het gebeurde en wanneer, zodat we je nooit meer mailen',
      leaveKey:
        'een willekeurige sleutel waarmee we je persoonlijke link maken om de wachtlijst te verlaten, dezelfde in elke mail die we je sturen',
      leaveRequested:
        'wanneer je voor het laatst met het formulier op deze pagina een link hebt gevraagd om de wachtlijst te verlaten',
      announcements: 'welke aankondigingen we je hebben gestuurd, zodat je er nooit een twee keer krijgt',
      source: 'waar je vandaan kwam, als de link waarmee je kwam dat zei: zie ‘Wat we tellen’ hieronder',
    },
    nothingElse: 'Meer bewaren we niet bij je adres: geen naam en geen IP-adres.',
  },
  purpose: {
    title: 'Waarvoor we het gebruiken',
    body: 'Alleen om je één mail te sturen waarmee je je aanmelding bevestigt, om je daarna te mailen zodra {brand} van start gaat, en om je een link te sturen om de wachtlijst te verlaten als je daarom vraagt. Verder sturen we je niets: geen nieuwsbrief, geen reclame.',
    confirmation:
      'Je aanmelding is pas definitief als je via de link in die mail naar onze pagina gaat en daar op de knop drukt. Alleen de link openen bevestigt nog niets. Zo kan niemand het adres van een ander op de wachtlijst zetten. Nog niet bevestigd en opnieuw aangemeld? Dan sturen we je een nieuwe link (hooguit {max} mails in totaal), in de taal van je eerste aanmelding. De links die je al hebt, blijven werken tot ze verlopen.',
    basis:
      'Dat doen we met je toestemming (artikel 6, lid 1, onder a AVG), die je geeft door je aan te melden en dat te bevestigen. Je kunt die toestemming altijd intrekken; wat we tot dan toe deden, blijft rechtmatig.',
  },
  retention: {
    title: 'Hoe lang we het bewaren',
    pending:
      'Een aanmelding die je niet bevestigt, wordt {days} dagen na de laatste bevestigingsmail automatisch verwijderd.',
    body: 'Heb je bevestigd, dan bewaren we je adres tot we je hebben laten weten dat {brand} van start is gegaan, of tot je de wachtlijst verlaat, als dat eerder is. Is {brand} 12 maanden na je aanmelding nog niet van start gegaan, dan wordt je adres op die datum alsnog automatisch verwijderd.',
  },
  storage: {
    title: 'Waar we het bewaren',
    body: 'De wachtlijst staat in een database bij Amazon Web Services (AWS). Daar draait ook deze website, en AWS bewaart de gegevens alleen in onze opdracht. We verkopen je adres niet en delen het met niemand anders.',
    mail: 'Onze mails versturen we via Amazon Simple Email Service (SES), ook een dienst van AWS, die je adres alleen gebruikt om ze te bezorgen.',
  },
  limits: {
    title: 'Grenzen tegen misbruik',
    body: 'Om te voorkomen dat iemand met ons formulier andermans inbox laat vollopen, sturen we in elke 24 uur hooguit {perMailbox} mails waarom gevraagd is (bevestigingsmails en links om de wachtlijst te verlaten, samen) naar één mailbox, hoe het adres ook geschreven is (met of zonder +toevoeging, en bij Gmail met of zonder punten). Om dat te tellen, bewaren we een onomkeerbare vingerafdruk van de mailbox, nooit het adres, met de tijden van die mails, tot 24 uur na de laatste; daarna wordt die automatisch verwijderd. De firewall van onze hostingdienst telt daarnaast steeds één minuut lang hoeveel aanmeldingen er van één IP-adres komen, en houdt een verbinding tegen die er meer dan {perClient} per minuut stuurt. Die adressen bewaren wij niet. We doen dit omdat we er een gerechtvaardigd belang bij hebben dat de wachtlijst tegen niemand gebruikt kan worden.',
    undeliverable:
      'Komt een mail aan jou definitief niet aan, of markeer je een mail van ons als spam, dan sturen we niets meer naar die mailbox, hoe het adres ook geschreven is, en halen we je van de wachtlijst. Zodat dat ook geldt als je aanmelding er niet meer is, bewaren we voorgoed een onomkeerbare vingerafdruk van de mailbox (nooit het adres) met die markering. Je aanmelding houdt de markering alleen tot die toch al zou verlopen, zodat niemand je adres opnieuw op de lijst kan zetten.',
  },
  logs: {
    title: 'Logbestanden',
    body: 'Om storingen op te sporen, legt onze hostingdienst van elk verzoek aan de wachtlijst vast wanneer het binnenkwam, wat de uitkomst was en hoe lang het duurde. Die logbestanden bevatten geen IP-adressen en geen e‑mailadressen, en worden na 90 dagen automatisch verwijderd. We bewaren deze gegevens omdat we er een gerechtvaardigd belang bij hebben dat de site werkt.',
  },
  counting: {
    title: 'Wat we tellen',
    visits:
      'Om te weten of deze site werkt, tellen we hoeveel mensen de twee startpagina’s openen, de Nederlandse en de Engelse: een aantal per dag en per taal, en verder niets. Als een startpagina geladen is, meldt een paar regels van ons eigen script dat aan onze server. Om je maar één keer per dag te tellen, hoe vaak je ook terugkomt, maakt de server een onomkeerbare vingerafdruk van je IP-adres en de naam van je browser samen met een willekeurige waarde die elke dag verandert, en bewaart alleen die vingerafdruk, tot de dag voorbij is. Je IP-adres en de naam van je browser zelf worden nergens bewaard, ook niet in onze logbestanden. De willekeurige waarde van een dag wordt na die dag nooit meer gebruikt: het eerste bezoek van de volgende dag vervangt haar, en ze wordt automatisch verwijderd. Zonder die waarde kan niemand, ook wij niet, nagaan van wie een vingerafdruk was, of die koppelen aan een andere dag. Robots die zeggen dat ze een robot zijn, tellen we niet mee, en bezoeken zonder JavaScript ook niet.',
    source:
      'Bij je aanmelding voor de wachtlijst bewaren we ook waar je vandaan kwam, als de link waarmee je kwam dat zei: de campagnegegevens in het adres van die link (utm_source, utm_medium en utm_campaign, zoals ‘nieuwsbrief’), en de naam van de website die naar ons linkte (zoals ‘instagram.com’), nooit een volledig adres of een pagina daarvan. Wat er verder in een link staat, bewaren we niet. Zo zien we welke van onze berichten en flyers werken, en verder niets over jou.',
    noCookie: 'Hiervoor zetten we geen cookie, dus je hoeft nergens toestemming voor te geven.',
    basis:
      'We doen dit omdat we er een gerechtvaardigd belang bij hebben te weten of onze pagina en onze berichten mensen bereiken.',
  },
  browser: {
    title: 'Cookies en je browser',
    body: 'Deze site zet geen cookies en gebruikt geen trackers en geen analysescripts van anderen; hoe we bezoeken tellen, staat onder ‘Wat we tellen’. Het enige wat de site in je browser bewaart, is je taalkeuze, in de lokale opslag (local storage) onder de naam {key}, zodat je bij een volgend bezoek meteen je eigen taal ziet. Die keuze blijft op je eigen apparaat, en je kunt die wissen in de instellingen van je browser.',
  },
  leave: {
    title: 'De wachtlijst verlaten',
    link: 'In elke mail die we je sturen, staat een persoonlijke link om de wachtlijst te verlaten. Open die link en druk op de knop op de pagina die opent: dan halen we je meteen van de lijst, verwijderen we je adres en mailen we je nooit meer. Alleen de link openen verandert nog niets. Toont je mailprogramma bij onze mail een knop ‘Afmelden’, dan doet die hetzelfde met één klik.',
    form: 'Geen mail van ons bij de hand? Vul hier je adres in, dan mailen we je een link om de wachtlijst te verlaten (hooguit één per {minutes} minuten). We geven bij elk adres hetzelfde antwoord, zodat niemand kan achterhalen wie er op de lijst staat.',
    counted: 'Van wie de wachtlijst verlaat, houden we alleen het aantal bij, zonder adressen.',
    emailLabel: 'Je e‑mailadres',
    submit: 'Mail me een link om de wachtlijst te verlaten',
    sending: 'Bezig met versturen…',
    requested: {
      body: 'Als dit adres op de wachtlijst staat, is er een mail met een link om de wachtlijst te verlaten naar je onderweg.',
      next: 'Kijk in je inbox, en ook in je spammap. De link werkt zolang je op de lijst staat.',
    },
    failed: 'Er ging iets mis. Probeer het nog een keer.',
  },
  rights: {
    title: 'Je rechten',
    lead: 'Je kunt ons vragen om:',
    items: {
      access: 'je te laten zien welke gegevens we over je bewaren (inzage)',
      rectification: 'ze te verbeteren (rectificatie)',
      erasure: 'ze te verwijderen (wissen)',
      withdraw:
        'ze niet meer te gebruiken: daarmee trek je je toestemming in, en dan verwijderen we je adres',
    },
    leave:
      'Wil je dat we je gegevens verwijderen, of trek je je toestemming in? Verlaat dan de wachtlijst zoals hierboven staat: dat kost één klik.',
    howTo:
      'Voor al het andere, zoals inzien of verbeteren wat we bewaren, of een vraag, mail je naar {email} vanaf het adres waarmee je je hebt aangemeld. We antwoorden binnen een maand.',
    complaint:
      'Ben je niet tevreden over hoe we met je gegevens omgaan? Dan kun je een klacht indienen bij de {authority}.',
    authority: 'Autoriteit Persoonsgegevens',
  },
} satisfies PrivacyCopy;
