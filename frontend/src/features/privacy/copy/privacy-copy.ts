import type { Locale } from '#contract/locales';

// With the page, so the home page does not download it; English defines the shape the Dutch is typed against.
const en = {
  title: 'Privacy notice',
  updated: 'Last updated: {date}',
  intro:
    '{brand} keeps as little about you as it can. This notice says what we keep when you join the waitlist, why and for how long, and what you can ask of us.',
  summary: {
    title: 'In short',
    items: {
      data: 'We keep your email address and what we need to handle it, such as your language and when you signed up.',
      purpose:
        'We use it only to confirm your signup and to tell you when {brand} launches: no newsletter, no advertising.',
      retention:
        "Your address is deleted once we have told you we launched, or when you leave, after 12 months at the latest; if you don't confirm, after {days} days.",
      storage:
        'It is stored at Amazon Web Services on our behalf and shared with no one else. No cookies, no trackers.',
      rights:
        'Leaving takes one click from any of our emails, or use the form below; for anything else, email {email}.',
    },
  },
  controller: {
    title: 'Who is responsible',
    body: '{controller} is responsible for the personal data described here (the “controller” under the GDPR). You can reach us at {email}.',
    /** Only when the site's config names them (config/site.ts, controller). */
    postalAddress: 'Our postal address: {address}.',
    kvkNumber: 'Registered with the Dutch Chamber of Commerce (KvK) under number {number}.',
  },
  data: {
    title: 'What we keep',
    lead: 'When you join the waitlist, we store:',
    items: {
      email: 'your email address, as you typed it',
      language: 'the language you signed up in (Dutch or English), so that we write to you in it',
      createdAt: 'the date and time you signed up',
      consentVersion: 'which version of the text with the signup form you agreed to',
      confirmation:
        'whether you have confirmed your signup, and if so, when, and which version of that text you confirmed',
      mails: 'when we sent you a confirmation email, and how many (at most {max})',
      tokenHash:
        'a one-way fingerprint of the code in each confirmation link we sent you, to recognise a link when you use it. We never keep a link itself, so what we keep cannot confirm anything',
      undeliverable:
        'if an email to you could not be delivered for good, or you marked one of ours as spam: that it happened and when, so that we never email you again',
      leaveKey:
        'a random key that makes your personal link to leave the waitlist, the same in every email we send you',
      leaveRequested: 'when you last asked for a link to leave with the form on this page',
      announcements: 'which announcements we sent you, so that you never get one twice',
      source: 'where you came from, if the link you came by said so: see “What we count” below',
    },
    nothingElse: 'With your address we store nothing else: no name, no IP address.',
  },
  purpose: {
    title: 'Why we keep it',
    body: 'Only to send you one email to confirm your signup, and then to email you when {brand} launches; and, if you ask for it, a link to leave the waitlist. We send you nothing else: no newsletter, no advertising.',
    confirmation:
      "Your signup is pending until you press the button on the page the link in that email opens; opening the link alone confirms nothing. That way nobody can put someone else's address on the list. If you sign up again before you have confirmed, we send you a new link (at most {max} emails in all), in the language of your first signup; the links you already have keep working until they expire.",
    basis:
      'We do this with your consent (Article 6(1)(a) GDPR), which you give by signing up and confirming. You can withdraw it at any time; what we did before stays lawful.',
  },
  retention: {
    title: 'How long we keep it',
    pending:
      'A signup you do not confirm is deleted automatically {days} days after we sent you the latest confirmation email.',
    body: 'Once you have confirmed, until we have told you that {brand} has launched, or until you leave the waitlist, whichever comes first. If {brand} has not launched 12 months after you signed up, your address is deleted automatically on that date anyway.',
  },
  storage: {
    title: 'Where it is kept',
    body: 'The waitlist is stored in a database at Amazon Web Services (AWS), which hosts this site and keeps the data only on our behalf. We do not sell your address, and we share it with no one else.',
    mail: 'We send our emails through Amazon Simple Email Service (SES), part of AWS too, which handles your address only to deliver them.',
  },
  limits: {
    title: 'Limits against misuse',
    body: "So that nobody can use our form to flood someone's inbox, we send at most {perMailbox} emails that were asked for (confirmation emails and links to leave, together) in any 24 hours to one mailbox, however its address is written (with or without a +tag, and at Gmail with or without dots). To count them we keep a one-way fingerprint of the mailbox, never the address, with the times of those emails, until 24 hours after the last one; then it is deleted automatically. Our hosting's firewall also counts, for one minute at a time, how many signups come from one IP address, and holds back a connection that sends more than {perClient} a minute; we do not keep those addresses. We do this because we have a legitimate interest in a waitlist that cannot be turned against anyone.",
    undeliverable:
      'If an email to you bounces for good, or you mark one of ours as spam, we send nothing more to that mailbox, however its address is written, and take you off the waitlist. So that this holds after your signup is gone too, we keep a one-way fingerprint of the mailbox (never the address) with that mark for good. Your signup keeps the mark only until it would have expired anyway, so that nobody can put your address on the list again.',
  },
  logs: {
    title: 'Website logs',
    body: 'To trace faults, our hosting records how the waitlist answered each request: when, the outcome and how long it took. These records hold no IP address and no email address, and are deleted automatically after 90 days. We keep these records because we have a legitimate interest in a site that works.',
  },
  counting: {
    title: 'What we count',
    visits:
      "To know whether this site works, we count how many people open its two home pages, the Dutch and the English one: a number per day and per language, and nothing else. Once a home page has loaded, a few lines of our own script tell our server so. To count you once a day however often you come back, the server makes a one-way fingerprint of your IP address and your browser's name together with a random value that changes every day, and keeps only that fingerprint, until the day is over. Your IP address and your browser's name themselves are not stored anywhere, not even in our logs. The day's random value is never used after that day: the next day's first visit replaces it, and it is deleted automatically. Without it nobody, not even we, can tell whose a fingerprint was, or link it to another day. Robots that say so are not counted, and neither are visits without JavaScript.",
    source:
      'When you join the waitlist, we also keep where you came from, if the link you came by said so: the campaign values in its address (utm_source, utm_medium and utm_campaign, such as “newsletter”), and the name of the website that linked to us (such as “instagram.com”), never a full address or a page on it. Anything else in a link we do not keep. That way we see which of our posts and flyers work, and nothing more about you.',
    noCookie: 'No cookie is set for any of this, so there is nothing to agree to.',
    basis:
      'We do this because we have a legitimate interest in knowing whether our page and our posts reach people.',
  },
  browser: {
    title: 'Cookies and your browser',
    body: "This site sets no cookies and uses no trackers and no one else's analytics scripts; how we count visits is under “What we count”. The only thing it keeps in your browser is your language choice, in local storage under the name {key}, so that your next visit opens in your language. It never leaves your browser, and you can clear it in your browser's settings.",
  },
  leave: {
    title: 'Leaving the waitlist',
    link: 'Every email we send you has a personal link to leave the waitlist. Open it and press the button on the page it opens: we take you off the list at once, delete your address and never email you again. Opening the link alone changes nothing. If your mail program shows an “unsubscribe” button for our email, it does the same in one click.',
    form: "No email from us at hand? Enter your address here and we'll email you a link to leave (at most one every {minutes} minutes). So that nobody can find out who is on the list, we give the same answer for every address.",
    counted:
      'Of the people who leave, we keep only the number, without any address (and for an hour a one-way fingerprint of the mailbox, so that nobody is counted twice).',
    emailLabel: 'Your email address',
    submit: 'Email me a link to leave',
    sending: 'Sending…',
    requested: {
      body: 'If this address is on the waitlist, an email with a link to leave is on its way.',
      next: 'Check your inbox, and your spam folder too. The link works for as long as you are on the list.',
    },
    failed: 'Something went wrong. Please try again.',
  },
  rights: {
    title: 'Your rights',
    lead: 'You can ask us to:',
    items: {
      access: 'show you the data we keep about you (access)',
      rectification: 'correct it (rectification)',
      erasure: 'delete it (erasure)',
      withdraw: 'stop using it: that withdraws your consent, and we delete your address',
    },
    leave:
      'To be deleted, or to withdraw your consent, leave the waitlist as described above: it takes one click.',
    howTo:
      'For anything else, such as seeing or correcting what we keep, or a question, email {email} from the address you signed up with. We answer within one month.',
    complaint:
      'If you are unhappy with how we handle your data, you can complain to the Dutch data protection authority, the {authority}.',
    authority: 'Autoriteit Persoonsgegevens',
  },
};

const nl = {
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
    counted:
      'Van wie de wachtlijst verlaat, houden we alleen het aantal bij, zonder adressen (en een uur lang een onomkeerbare vingerafdruk van de mailbox, zodat niemand twee keer meetelt).',
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
} satisfies typeof en;

export const privacyCopy = { nl, en } satisfies Record<Locale, typeof en>;
