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
    },
    nothingElse: 'Meer bewaren we niet bij je adres: geen naam en geen IP-adres.',
  },
  purpose: {
    title: 'Waarvoor we het gebruiken',
    body: 'Alleen om je per e-mail te laten weten wanneer {brand} live gaat. Verder sturen we je niets: geen nieuwsbrief, geen reclame.',
    basis:
      'Dat doen we met je toestemming (artikel 6, lid 1, onder a AVG), die je geeft door je aan te melden. Je kunt die toestemming altijd intrekken; wat we daarvoor deden, blijft rechtmatig.',
  },
  retention: {
    title: 'Hoe lang we het bewaren',
    body: 'Tot we je hebben laten weten dat {brand} live is, of tot je ons vraagt je adres te verwijderen, als dat eerder is. Is {brand} 12 maanden na je aanmelding nog niet live, dan wordt je adres toch verwijderd: de database doet dat op die datum vanzelf.',
  },
  storage: {
    title: 'Waar het staat',
    body: 'De wachtlijst staat in een database bij Amazon Web Services (AWS), dat deze website host en de gegevens alleen in onze opdracht bewaart. We verkopen je adres niet en delen het met niemand anders.',
  },
  logs: {
    title: 'Logboeken van de website',
    body: 'Zoals de meeste websites houdt onze hosting bij welke verzoeken er naar deze site gaan, met het IP-adres waar ze vandaan komen, zodat we storingen en misbruik kunnen opsporen. Die gegevens worden na 90 dagen automatisch verwijderd. We bewaren ze omdat we een gerechtvaardigd belang hebben bij een veilige site die werkt.',
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
