import type { PrivacyCopy } from './en';

/** The privacy notice in Dutch, the default language. */
export const nl = {
  title: 'Privacyverklaring',
  updated: 'Laatst bijgewerkt: {date}',
  intro:
    '{brand} bewaart zo weinig mogelijk over je. Hier lees je wat we bewaren als je je aanmeldt voor de wachtlijst, waarom en hoe lang, en wat je van ons mag vragen.',
  homeLink: 'Terug naar de startpagina',
  controller: {
    title: 'Wie is verantwoordelijk',
    body: '{brand} is verantwoordelijk voor de persoonsgegevens op deze pagina (de ‘verwerkingsverantwoordelijke’ in de AVG). Je bereikt ons via {email}.',
  },
  data: {
    title: 'Wat we bewaren',
    lead: 'Als je je aanmeldt voor de wachtlijst, bewaren we:',
    items: {
      email: 'je e-mailadres, zoals je het hebt ingetypt',
      language: 'de taal waarin je je aanmeldde (Nederlands of Engels), zodat we je in die taal mailen',
      createdAt: 'de datum en het tijdstip van je aanmelding',
      consentVersion: 'met welke versie van de aanmeldtekst je instemde (nu {version})',
      confirmation:
        'of je je aanmelding hebt bevestigd, en zo ja, wanneer en welke versie van de aanmeldtekst je bevestigde',
      mails: 'wanneer we je een bevestigingsmail stuurden, en hoeveel (hooguit {max})',
      tokenHash:
        'een hash van de code in je bevestigingslink, om de link te herkennen als je hem gebruikt: nooit de link zelf, dus met wat wij bewaren kan niemand iets bevestigen',
    },
    nothingElse: 'Meer bewaren we niet bij je adres: geen naam en geen IP-adres.',
  },
  purpose: {
    title: 'Waarvoor we het gebruiken',
    body: 'Alleen om je één mail te sturen waarmee je je aanmelding bevestigt, en om je daarna per e-mail te laten weten wanneer {brand} live gaat. Verder sturen we je niets: geen nieuwsbrief, geen reclame.',
    confirmation:
      'Je aanmelding is pas definitief als je op de knop drukt op de pagina die de link in die mail opent; alleen de link openen bevestigt nog niets. Zo kan niemand het adres van een ander op de lijst zetten. Meld je je opnieuw aan voordat je hebt bevestigd, dan sturen we je een nieuwe link (hooguit {max} mails in totaal) en werkt de vorige niet meer.',
    basis:
      'Dat doen we met je toestemming (artikel 6, lid 1, onder a AVG), die je geeft door je aan te melden en dat te bevestigen. Je kunt die toestemming altijd intrekken; wat we daarvoor deden, blijft rechtmatig.',
  },
  retention: {
    title: 'Hoe lang we het bewaren',
    pending:
      'Een aanmelding die je niet bevestigt, wordt {days} dagen na de laatste bevestigingsmail verwijderd: de database doet dat vanzelf.',
    body: 'Heb je bevestigd, dan tot we je hebben laten weten dat {brand} live is, of tot je ons vraagt je adres te verwijderen, als dat eerder is. Is {brand} 12 maanden na je aanmelding nog niet live, dan wordt je adres toch verwijderd: de database doet dat op die datum vanzelf.',
  },
  storage: {
    title: 'Waar het staat',
    body: 'De wachtlijst staat in een database bij Amazon Web Services (AWS), dat deze website host en de gegevens alleen in onze opdracht bewaart. We verkopen je adres niet en delen het met niemand anders.',
    mail: 'De bevestigingsmail versturen we via Amazon Simple Email Service (SES), ook van AWS, dat je adres alleen gebruikt om die mail te bezorgen.',
  },
  logs: {
    title: 'Logboeken van de website',
    body: 'Om storingen op te sporen houdt onze hosting bij hoe de wachtlijst elk verzoek heeft beantwoord: wanneer, met welke uitkomst en hoe snel. Daarin staat geen IP-adres en geen e-mailadres, en na 90 dagen worden die gegevens automatisch verwijderd. Wie de site bezoekt, houden we niet bij. We bewaren deze gegevens omdat we een gerechtvaardigd belang hebben bij een site die werkt.',
  },
  browser: {
    title: 'Cookies en je browser',
    body: 'Deze site gebruikt geen cookies, geen trackers en geen analytics. Het enige dat hij in je browser bewaart, is je taalkeuze, in de lokale opslag onder de naam {key}, zodat je bij een volgend bezoek meteen je eigen taal ziet. Die keuze verlaat je browser niet en je kunt haar wissen via de instellingen van je browser.',
  },
  rights: {
    title: 'Je rechten',
    lead: 'Je kunt ons vragen om:',
    items: {
      access: 'je te laten zien welke gegevens we over je bewaren (inzage)',
      rectification: 'ze te verbeteren (rectificatie)',
      erasure: 'ze te verwijderen (wissen)',
      withdraw: 'ermee te stoppen: zo trek je je toestemming in, en wij verwijderen je adres',
    },
    howTo:
      'Mail daarvoor naar {email} vanaf het adres waarmee je je aanmeldde. We antwoorden binnen een maand.',
    complaint:
      'Ben je niet tevreden over hoe we met je gegevens omgaan? Dan kun je een klacht indienen bij de {authority}.',
    authority: 'Autoriteit Persoonsgegevens',
  },
} satisfies PrivacyCopy;
