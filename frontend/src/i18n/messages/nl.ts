import type { Messages } from './en';

/** Dutch copy, the default language. Typed against the English shape: every key must be here. */
export const nl = {
  meta: {
    homeTitle: 'Mandje · Bespaar op je boodschappen bij elke supermarkt',
    homeDescription:
      'Mandje vindt de goedkoopste aanbiedingen en vergelijkt je hele boodschappenmandje tussen Nederlandse supermarkten. Bespaar zo’n €20-30 per week. Zet je gratis op de wachtlijst.',
    notFoundTitle: 'Pagina niet gevonden · Mandje',
    privacyTitle: 'Privacyverklaring · Mandje',
    privacyDescription:
      'Wat Mandje bewaart als je je aanmeldt voor de wachtlijst, waarom, hoe lang, en wat je van ons mag vragen.',
    waitlistResultTitles: {
      'waitlist-joined': 'Je staat op de wachtlijst',
      'waitlist-already-registered': 'Je staat al op de wachtlijst',
      'waitlist-invalid-email': 'Controleer je e-mailadres',
      'waitlist-try-again': 'Er ging iets mis',
    },
    confirmTitle: 'Bevestig je aanmelding',
    confirmResultTitles: {
      'confirm-confirmed': 'Je aanmelding is bevestigd',
      'confirm-already-confirmed': 'Al bevestigd',
      'confirm-expired': 'Deze link is verlopen',
      'confirm-invalid': 'Deze link werkt niet',
      'confirm-unknown': 'Deze link is niet meer te gebruiken',
      'confirm-try-again': 'Er ging iets mis',
    },
  },
  common: {
    skipToContent: 'Naar de inhoud',
    languageNavLabel: 'Taal',
    languageNames: { nl: 'Nederlands', en: 'English' },
    comingSoon: 'Binnenkort',
    opensInNewTab: '(opent in een nieuw tabblad)',
  },
  hero: {
    title: 'Je boodschappen, altijd bij de goedkoopste supermarkt',
    subtitle:
      'Mandje zoekt de beste aanbiedingen en vergelijkt je hele boodschappenmandje tussen Nederlandse supermarkten. Bespaar zo’n €20-30 per week: meer dan €1.000 per jaar.',
    joinWaitlist: 'Zet me op de wachtlijst',
    testers: '100+ testers besparen al',
  },
  howItWorks: {
    title: 'Zo werkt het',
    intro: 'Drie manieren om minder te betalen, hoe je ook boodschappen doet.',
    modes: {
      product: { title: 'Productmodus', body: 'Typ een product en krijg meteen de goedkoopste versie.' },
      basket: {
        title: 'Mandjemodus',
        body: 'Vergelijk je hele boodschappenlijst, of vertel wat je wilt koken en wij zoeken de ingrediënten op.',
      },
      receipt: { title: 'Kassabon scannen', body: 'Scan je kassabon en zie wat je had kunnen besparen.' },
    },
  },
  why: {
    title: 'Waarom Mandje?',
    points: {
      money: {
        title: 'Bespaar geld',
        body: 'Zo’n €20-30 per week, meer dan €1.000 per jaar, zonder dat je anders hoeft te eten.',
      },
      time: {
        title: 'Bespaar tijd',
        body: 'Nooit meer folders doorbladeren: we werken de prijzen elke week bij van alle grote Nederlandse supermarkten.',
      },
      oneTrip: {
        title: 'Eén keer langs, slim ingekocht',
        body: 'Zie welke winkel je hele mandje het goedkoopst heeft en haal alles in één keer.',
      },
    },
  },
  demo: {
    title: 'Probeer het zelf',
    intro: 'Een voorproefje van hoe Mandje antwoordt. De antwoorden in deze demo zijn voorbeelden.',
    assistantName: 'Mandje-assistent',
    assistantStatus: 'Demo met voorbeeldantwoorden',
    viewSelectorLabel: 'Demoweergave',
    views: { product: 'Product', basket: 'Mandje' },
    conversationLabel: 'Gesprek',
    senderYou: 'Jij',
    senderMandje: 'Mandje',
    productQuestion: 'Waar vind ik deze week goedkope melk?',
    productAnswer: (a) =>
      `Bij ${a.store}! ${a.product} is in de aanbieding voor ${a.bonusPrice} in plaats van ${a.originalPrice}. Je bespaart ${a.savings}.`,
    basketQuestion: 'Vergelijk mijn mandje: melk, brood, pasta, appels, quinoa, kokosolie en matchapoeder.',
    basketAnswer: 'Zo koop je je mandje deze week het goedkoopst:',
    summary: { total: 'Totaal', savings: 'Je bespaart', bestStore: 'Beste winkel' },
    dealsTitle: (store) => `Aanbiedingen bij ${store}`,
    dealsHint: 'Kies een product voor de details.',
    discountOff: (percent) => `${percent} korting`,
    wasPrice: (price) => `was ${price}`,
    alternative: {
      title: (store) => `Ook gevonden bij ${store}`,
      available: (count) => `${count} producten beschikbaar`,
      save: (amount) => `bespaar ${amount}`,
    },
    notFoundTitle: 'Niet gevonden',
    products: {
      milk: 'Halfvolle melk',
      bread: 'Volkoren desembrood',
      pasta: 'Penne',
      apples: 'Biologische Elstar-appels',
    },
    missingProducts: { quinoa: 'Quinoa', coconutOil: 'Kokosolie', matchaPowder: 'Matchapoeder' },
    input: { label: 'Bericht', placeholder: 'Vraag naar een product of je mandje…', send: 'Versturen' },
    cannedReply:
      'Mandje is nog in ontwikkeling. Zet je op de wachtlijst, dan ben je een van de eersten die het kan proberen: het komt er binnenkort aan!',
    plusMenu: {
      toggle: 'Meer opties',
      scanReceipt: 'Kassabon scannen',
      character: 'Personage',
      location: 'Locatie',
      product: 'Product',
      supermarket: 'Supermarkt',
      language: 'Taal',
    },
    tryFirst: {
      label: 'Wat staat er op je boodschappenlijst?',
      placeholder: 'bijv. melk, brood, koffie',
      submit: 'Probeer het eerst',
      loading: 'Je demo wordt klaargezet…',
      required: 'Vul minstens één product in om het te proberen.',
    },
    dealDialog: {
      store: 'Winkel',
      discount: 'Korting',
      bonusPrice: 'Aanbiedingsprijs',
      originalPrice: 'Normale prijs',
      size: 'Inhoud',
      unitPrice: 'Prijs per eenheid',
      perUnit: { liter: 'per liter', kilogram: 'per kilo' },
      quantity: 'Aantal',
      savings: 'Je bespaart',
      validFrom: 'Geldig vanaf',
      validUntil: 'Geldig tot en met',
      close: 'Sluiten',
    },
    basketDialog: {
      title: (store) => `Je mandje bij ${store}`,
      description: 'Dezelfde producten bij deze winkel, met de aanbiedingen van deze week.',
      savings: 'Besparing',
      total: 'Totaal',
      totalSavings: 'Besparing',
      close: 'Sluiten',
    },
    exampleWeek: (dates) => `Voorbeeldweek · ${dates}`,
    cheapestLabel: 'Goedkoopst',
    alternativeComparison: (a) =>
      `Ter vergelijking: hetzelfde mandje kost bij ${a.store} ${a.amount} meer dan bij ${a.cheapest}.`,
    notFoundNote: 'Deze week bij geen enkele supermarkt in de aanbieding.',
    inputShortPlaceholder: 'Vraag het Mandje…',
    characterEntry: 'Karakter van Mandje',
  },
  sources: {
    title: 'Prijzen van de supermarkten die je kent',
    listLabel: 'Supermarkten die we vergelijken',
    note: 'We werken de prijzen elke week bij van alle grote Nederlandse supermarkten.',
  },
  next: {
    title: 'Wat komt er nog',
    intro: 'Hier werken we nu al aan. Testers krijgen het als eerste.',
    mascotLabel: 'De mascotte van Mandje: een lachend mandje vol verse boodschappen',
    features: {
      location: {
        title: 'Aanbiedingen in de buurt',
        body: 'Zie de aanbiedingen bij de supermarkten bij jou in de buurt.',
      },
      personal: { title: 'Persoonlijke besparingen', body: 'Tips die passen bij wat jij echt koopt.' },
      notifications: {
        title: 'Slimme meldingen',
        body: 'Krijg een seintje als je favoriete producten in de aanbieding zijn.',
      },
      seasonal: { title: 'Seizoenstips', body: 'Eet wat er in het seizoen is, voor minder.' },
    },
  },
  finalCta: {
    title: 'Klaar om minder te betalen voor dezelfde boodschappen?',
    body: 'Doe mee met de 100+ testers die al elke week besparen.',
    button: 'Krijg als eerste toegang',
  },
  signup: {
    title: 'Zet je op de bètawachtlijst',
    body: 'Laat je e-mailadres achter en gebruik Mandje als een van de eersten. Het is gratis.',
    emailLabel: 'E-mailadres',
    exampleEmail: 'naam@voorbeeld.nl',
    submit: 'Meld me aan',
    sending: 'Je wordt aangemeld…',
    honeypotLabel: 'Laat dit veld leeg',
    dismissNotice: 'Sluiten',
    note: 'We sturen je een mail om je aanmelding te bevestigen, en laten het je weten zodra Mandje klaar is. Je adres gebruiken we alleen daarvoor.',
    privacySentence:
      'Bevestig je niet, dan verwijderen we je adres. Hoe we ermee omgaan, lees je in onze {link}.',
    privacyLink: 'privacyverklaring',
    mailSent: 'We hebben een mail gestuurd naar {address}. Met de link daarin bevestig je je aanmelding.',
    errors: {
      empty: 'Vul een e-mailadres in',
      malformed: (example) => `Vul een geldig e-mailadres in (bijv. ${example})`,
    },
    resultPages: {
      backToForm: 'Terug naar het formulier',
      backHome: 'Terug naar Mandje',
      browserBack:
        'Met de terugknop van je browser kom je weer bij het formulier, met het adres dat je had ingevuld.',
      notSaved: 'Je adres is niet opgeslagen.',
      nothingToDo: 'Je hoeft niets meer te doen: we laten het je weten zodra Mandje klaar is.',
      mailSent:
        'We hebben je een mail gestuurd: met de link daarin bevestig je je aanmelding. Daarna laten we het je weten zodra Mandje klaar is.',
    },
    notices: {
      successTitle: 'Gelukt! 🎉',
      successBody: 'Je staat op de wachtlijst!',
      duplicateTitle: 'Al aangemeld',
      duplicateBody: 'Dit e-mailadres staat al op de wachtlijst!',
      errorTitle: 'Fout',
      errorBody: 'Er ging iets mis. Probeer het opnieuw.',
    },
  },
  footer: {
    follow: 'Volg ons voor bespaartips en nieuws',
    socialLink: (network, handle) => `${handle} op ${network}`,
    tiktok: 'TikTok',
    tiktokPlaceholder: 'TikTok: binnenkort, nog geen link',
    contact: 'Contact',
    launching: 'Binnenkort te gebruiken, in heel Nederland.',
    privacy: 'Privacyverklaring',
  },
  notFound: {
    code: '404',
    title: 'Oeps! Pagina niet gevonden',
    homeLink: 'Terug naar de startpagina',
  },
} satisfies Messages;
