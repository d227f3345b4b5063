import type { Messages } from './en';

export const nl = {
  meta: {
    homeTitle: 'Mandje · Bespaar op je boodschappen bij elke Nederlandse supermarkt',
    homeDescription:
      'Mandje vindt de beste aanbiedingen en zoekt uit bij welke supermarkt je hele mandje het goedkoopst is. Dat scheelt zo’n {weekly} per week. Meld je gratis aan voor de wachtlijst.',
    notFoundTitle: 'Pagina niet gevonden · Mandje',
    privacyTitle: 'Privacyverklaring · Mandje',
    privacyDescription:
      'Wat Mandje bewaart als je je aanmeldt voor de wachtlijst, waarom, hoe lang, en wat je van ons mag vragen.',
    waitlistResultTitles: {
      'waitlist-joined': 'Nog één stap: bevestig met de link die we je stuurden',
      'waitlist-already-registered': 'Al aangemeld',
      'waitlist-invalid-email': 'Controleer je e‑mailadres',
      'waitlist-try-again': 'Er ging iets mis',
    },
    confirmTitle: 'Laatste stap: bevestig je aanmelding',
    confirmResultTitles: {
      'confirm-confirmed': 'Je aanmelding is bevestigd',
      'confirm-already-confirmed': 'Al bevestigd',
      'confirm-expired': 'Deze link is verlopen',
      'confirm-invalid': 'Deze link werkt niet',
      'confirm-unknown': 'Deze link werkt niet meer',
      'confirm-try-again': 'Er ging iets mis',
    },
    leaveTitle: 'Afmelden voor de wachtlijst',
    leaveResultTitles: {
      'leave-done': 'Je bent afgemeld',
      'leave-requested': 'Kijk in je inbox',
      'leave-try-again': 'Er ging iets mis',
    },
  },
  common: {
    skipToContent: 'Naar de inhoud',
    languageNavLabel: 'Taal',
    languageNames: { nl: 'Nederlands', en: 'English' },
    comingSoon: 'Binnenkort',
    opensInNewTab: '(opent in een nieuw tabblad)',
    backToHome: 'Terug naar de startpagina',
  },
  hero: {
    title: 'Je boodschappen, altijd bij de goedkoopste supermarkt',
    subtitle:
      'Mandje zoekt de beste aanbiedingen en vergelijkt wat je hele mandje kost bij de Nederlandse supermarkten. Dat scheelt zo’n {weekly} per week, ruim {yearly} per jaar.',
    joinWaitlist: 'Meld je aan',
    testers: 'Gesloten test: ruim 100 testers besparen er al mee',
  },
  howItWorks: {
    title: 'Zo werkt het',
    intro: 'Drie manieren om minder te betalen, hoe je ook boodschappen doet.',
    modes: {
      product: {
        title: 'Eén product',
        body: 'Typ een product en je ziet meteen welke supermarkt het voordeligst is.',
      },
      basket: {
        title: 'Je hele mandje',
        body: 'Vergelijk je hele mandje, of vertel wat je wilt koken, dan zoeken wij de ingrediënten erbij.',
      },
      receipt: { title: 'Je kassabon', body: 'Scan je kassabon en ontdek wat je had kunnen besparen.' },
    },
  },
  why: {
    title: 'Waarom Mandje?',
    points: {
      money: {
        title: 'Minder kwijt aan boodschappen',
        body: 'Zo’n {weekly} per week en meer dan {yearly} per jaar, zonder dat je anders hoeft te eten.',
      },
      time: {
        title: 'Geen folders meer',
        body: 'Mandje heeft elke week de actuele prijzen van alle grote Nederlandse supermarkten, dus jij hoeft geen folders meer door te bladeren.',
      },
      oneTrip: {
        title: 'In één keer klaar',
        body: 'Je ziet bij welke supermarkt je hele mandje het goedkoopst is, en je haalt alles in één keer.',
      },
    },
  },
  demo: {
    title: 'Probeer het zelf',
    intro: 'Zo werkt Mandje. De prijzen in deze demo zijn voorbeelden.',
    assistantName: 'Mandje-assistent',
    assistantStatus: 'Demo met voorbeeldantwoorden',
    viewSelectorLabel: 'Demoweergave',
    views: { product: 'Eén product', basket: 'Hele mandje' },
    conversationLabel: 'Gesprek',
    senderYou: 'Jij',
    senderMandje: 'Mandje',
    productQuestion: 'Waar vind ik deze week goedkope melk?',
    productAnswer: (a) =>
      `Bij ${a.store}! ${a.product} is in de aanbieding: ${a.bonusPrice} in plaats van ${a.originalPrice}. Je bespaart ${a.savings}.`,
    basketQuestion: 'Vergelijk mijn mandje: melk, brood, pasta, appels, quinoa, kokosolie en matchapoeder.',
    basketAnswer: 'Zo is je mandje deze week het goedkoopst:',
    summary: { total: 'Totaal', savings: 'Besparing', bestStore: 'Beste winkel' },
    dealsTitle: (store) => `Aanbiedingen bij ${store}`,
    dealsHint: 'Kies een product voor de details.',
    discountOff: (percent) => `${percent} korting`,
    wasPrice: (price) => `was ${price}`,
    alternative: {
      title: (store) => `Ook gevonden bij ${store}`,
      available: (count) => `${count} producten beschikbaar`,
      save: (amount) => `Je bespaart ${amount}`,
    },
    notFoundTitle: 'Geen aanbieding',
    products: {
      milk: 'Halfvolle melk',
      bread: 'Volkoren desembrood',
      pasta: 'Penne',
      apples: 'Biologische Elstar-appels',
    },
    missingProducts: { quinoa: 'Quinoa', coconutOil: 'Kokosolie', matchaPowder: 'Matchapoeder' },
    input: { label: 'Bericht', placeholder: 'Vraag het Mandje…', send: 'Versturen' },
    cannedReply:
      'Mandje is nog in ontwikkeling. Meld je aan voor de wachtlijst, dan ben je een van de eersten die het mogen proberen. Het duurt niet lang meer!',
    plusMenu: {
      toggle: 'Meer opties',
      scanReceipt: 'Kassabon scannen',
      character: 'Hoe Mandje praat',
      location: 'Locatie',
      product: 'Product',
      supermarket: 'Supermarkt',
    },
    tryFirst: {
      label: 'Wat staat er op je boodschappenlijst?',
      placeholder: 'bijv. melk, brood, koffie',
      submit: 'Probeer het als eerste',
      loading: 'Nog in een gesloten test: op naar de wachtlijst…',
      required: 'Vul minstens één product in om het te proberen.',
    },
    exampleWeek: (dates) => `Voorbeeldweek · ${dates}`,
    cheapestLabel: 'Goedkoopst',
    alternativeComparison: (a) =>
      `Ter vergelijking: hetzelfde mandje kost bij ${a.store} ${a.amount} meer dan bij ${a.cheapest}.`,
    notFoundNote: 'Deze week bij geen enkele supermarkt in de aanbieding.',
  },
  sources: {
    title: 'Prijzen van de supermarkten die je kent',
    listLabel: 'Supermarkten die we vergelijken',
    note: 'Voor onze testers werken we elke week de prijzen van alle grote Nederlandse supermarkten bij.',
  },
  next: {
    title: 'Wat er nog komt',
    intro: 'Hier werken we nu aan. Testers mogen alles als eerste proberen.',
    mascotLabel: 'De mascotte van Mandje: een lachend mandje vol verse boodschappen',
    features: {
      location: {
        title: 'Aanbiedingen in de buurt',
        body: 'Bekijk de aanbiedingen van de supermarkten bij jou in de buurt.',
      },
      personal: { title: 'Besparen op maat', body: 'Tips die passen bij wat jij echt koopt.' },
      notifications: {
        title: 'Slimme meldingen',
        body: 'Je krijgt een seintje zodra je favoriete producten in de aanbieding zijn.',
      },
      seasonal: { title: 'Seizoenstips', body: 'Eet met de seizoenen mee en betaal minder.' },
    },
  },
  finalCta: {
    title: 'Zin om minder te betalen voor dezelfde boodschappen?',
    body: 'In onze gesloten test besparen ruim 100 testers al elke week. Straks jij ook?',
    button: 'Meld je aan',
  },
  signup: {
    title: 'Meld je aan voor de wachtlijst',
    body: 'Laat je e‑mailadres achter en probeer de bèta van Mandje als een van de eersten. Het is gratis.',
    emailLabel: 'E‑mailadres',
    exampleEmail: 'naam@voorbeeld.nl',
    submit: 'Meld je aan',
    sending: 'Je wordt aangemeld…',
    honeypotLabel: 'Laat dit veld leeg',
    dismissNotice: 'Sluiten',
    note: 'We sturen je een mail om je aanmelding te bevestigen en laten het je weten zodra Mandje klaar is. Je adres gebruiken we alleen daarvoor.',
    privacySentence:
      'Bevestig je niet binnen {days} dagen, dan verwijderen we je adres. Hoe we ermee omgaan, lees je in onze {link}.',
    privacyLink: 'privacyverklaring',
    checkInbox:
      'We hebben een mail gestuurd naar {address}. Klik op de knop in die mail en bevestig op de pagina die dan verschijnt.',
    spamFolder: 'Geen mail gezien? Kijk dan ook in je spammap.',
    changeAddress: 'Adres aanpassen',
    notConfirmedYet: 'Nog niet bevestigd? Zoek dan in je inbox en je spammap naar onze mail met de link.',
    didYouMean: 'Bedoel je {address}?',
    errors: {
      empty: 'Vul een e‑mailadres in',
      malformed: (example) => `Vul een geldig e‑mailadres in (bijv. ${example})`,
    },
    notices: {
      successTitle: 'Gelukt! 🎉',
      successBody: 'Je staat op de wachtlijst!',
      duplicateTitle: 'Al aangemeld',
      duplicateBody: 'Dit e‑mailadres staat al op de wachtlijst!',
      errorTitle: 'Mislukt',
      errorBody: 'Er ging iets mis. Probeer het opnieuw.',
    },
  },
  footer: {
    follow: 'Volg ons voor bespaartips en nieuws',
    socialLink: (network, handle) => `${handle} op ${network}`,
    tiktok: 'TikTok',
    tiktokPlaceholder: 'TikTok: binnenkort, nog geen link',
    contact: 'Contact',
    launching: 'Binnenkort beschikbaar in heel Nederland.',
    runBy: (name) => `Een initiatief van ${name}`,
    privacy: 'Privacyverklaring',
  },
  notFound: { code: '404', title: 'Oeps! Pagina niet gevonden', homeLink: 'Terug naar de startpagina' },
} satisfies Messages;
