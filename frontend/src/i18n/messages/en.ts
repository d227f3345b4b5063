// Defines the shape of every language's messages: a missing or misspelt key fails the type check.
export const en = {
  meta: {
    homeTitle: 'Mandje · Save on groceries at every Dutch supermarket',
    homeDescription:
      'Mandje finds the cheapest supermarket deals and compares your whole basket across Dutch supermarkets. Save about {weekly} a week. Join the free waitlist.',
    notFoundTitle: 'Page not found · Mandje',
    privacyTitle: 'Privacy notice · Mandje',
    privacyDescription:
      'What Mandje keeps when you join the waitlist, why, for how long, and what you can ask of us.',
    waitlistResultTitles: {
      'waitlist-joined': 'One more step: confirm with the link we sent',
      'waitlist-already-registered': 'Already registered',
      'waitlist-invalid-email': 'Check your email address',
      'waitlist-try-again': 'Something went wrong',
    },
    confirmTitle: 'Last step: confirm your signup',
    confirmResultTitles: {
      'confirm-confirmed': 'Your signup is confirmed',
      'confirm-already-confirmed': 'Already confirmed',
      'confirm-expired': 'This link has expired',
      'confirm-invalid': "This link doesn't work",
      'confirm-unknown': 'This link no longer works',
      'confirm-try-again': 'Something went wrong',
    },
    leaveTitle: 'Leave the waitlist',
    leaveResultTitles: {
      'leave-done': "You've left the waitlist",
      'leave-requested': 'Check your inbox',
      'leave-try-again': 'Something went wrong',
    },
  },
  common: {
    skipToContent: 'Skip to content',
    languageNavLabel: 'Language',
    languageNames: { nl: 'Nederlands', en: 'English' },
    comingSoon: 'Coming soon',
    opensInNewTab: '(opens in a new tab)',
    backToHome: 'Back to home',
  },
  hero: {
    title: 'Your groceries, always at the cheapest supermarket',
    subtitle:
      'Mandje finds the best deals and compares your whole basket across Dutch supermarkets. Save about {weekly} a week, more than {yearly} a year.',
    joinWaitlist: 'Join the waitlist',
    testers: '100+ testers are already saving in our closed test',
  },
  howItWorks: {
    title: 'How it works',
    intro: 'Three ways to pay less, whatever kind of shopper you are.',
    modes: {
      product: {
        title: 'One item',
        body: 'Type an item and see right away which supermarket sells it cheapest.',
      },
      basket: {
        title: 'Your whole basket',
        body: 'Compare your whole basket, or say what you want to cook and we look up the ingredients.',
      },
      receipt: { title: 'Your receipt', body: 'Scan a receipt and see what you could have saved.' },
    },
  },
  why: {
    title: 'Why Mandje?',
    points: {
      money: {
        title: 'Save money',
        body: 'About {weekly} a week and more than {yearly} a year, without changing what you eat.',
      },
      time: {
        title: 'No more flyers',
        body: 'Prices are updated weekly from all major Dutch supermarkets, so there is nothing to leaf through.',
      },
      oneTrip: {
        title: 'Everything in one trip',
        body: 'See which supermarket has your whole basket for the least, and do all your shopping in one go.',
      },
    },
  },
  demo: {
    title: 'Try it out',
    intro: 'This is how Mandje works. The prices in this demo are examples.',
    assistantName: 'Mandje assistant',
    assistantStatus: 'Demo with example answers',
    viewSelectorLabel: 'Demo view',
    views: { product: 'Product', basket: 'Basket' },
    conversationLabel: 'Conversation',
    senderYou: 'You',
    senderMandje: 'Mandje',
    productQuestion: 'Where can I find cheap milk this week?',
    productAnswer: (a: Record<'store' | 'product' | 'bonusPrice' | 'originalPrice' | 'savings', string>) =>
      `At ${a.store}! ${a.product} is on offer for ${a.bonusPrice} instead of ${a.originalPrice}. You save ${a.savings}.`,
    basketQuestion: 'Compare my basket: milk, bread, pasta, apples, quinoa, coconut oil and matcha powder.',
    basketAnswer: 'This is the cheapest way to buy your basket this week:',
    summary: { total: 'Total', savings: 'You save', bestStore: 'Best store' },
    dealsTitle: (store: string) => `Deals at ${store}`,
    dealsHint: 'Choose a product for the details.',
    discountOff: (percent: string) => `${percent} off`,
    wasPrice: (price: string) => `was ${price}`,
    alternative: {
      title: (store: string) => `Also found at ${store}`,
      available: (count: number) => `${count} products available`,
      save: (amount: string) => `You save ${amount}`,
    },
    notFoundTitle: 'Not found',
    products: {
      milk: 'Semi-skimmed milk',
      bread: 'Wholemeal sourdough bread',
      pasta: 'Penne',
      apples: 'Organic Elstar apples',
    },
    missingProducts: { quinoa: 'Quinoa', coconutOil: 'Coconut oil', matchaPowder: 'Matcha powder' },
    input: { label: 'Message', placeholder: 'Ask Mandje…', send: 'Send' },
    cannedReply:
      "Mandje is still in development. Join the waitlist and you'll be among the first to try it: it's coming soon!",
    plusMenu: {
      toggle: 'More options',
      scanReceipt: 'Scan receipt',
      character: "Mandje's character",
      location: 'Location',
      product: 'Product',
      supermarket: 'Supermarket',
    },
    tryFirst: {
      label: "What's on your shopping list?",
      placeholder: 'e.g. milk, bread, coffee',
      submit: 'Try it first',
      loading: 'Still in a closed test: taking you to the waitlist…',
      required: 'Enter at least one product to try it.',
    },
    exampleWeek: (dates: string) => `Example week · ${dates}`,
    cheapestLabel: 'Cheapest',
    alternativeComparison: (a: { store: string; amount: string; cheapest: string }) =>
      `For comparison: the same basket costs ${a.amount} more at ${a.store} than at ${a.cheapest}.`,
    notFoundNote: 'No supermarket has these on offer this week.',
  },
  sources: {
    title: 'Prices from the supermarkets you know',
    listLabel: 'Supermarkets we compare',
    note: 'Prices are updated weekly from all major Dutch supermarkets.',
  },
  next: {
    title: "What's next",
    intro: "We're already working on these. Testers get to try them first.",
    mascotLabel: "Mandje's mascot: a smiling basket full of fresh groceries",
    features: {
      location: { title: 'Location-based deals', body: 'See the deals at the supermarkets near you.' },
      personal: { title: 'Personalised savings', body: 'Tips that fit what you actually buy.' },
      notifications: {
        title: 'Smart notifications',
        body: 'Get a heads-up when your favourite products are on offer.',
      },
      seasonal: { title: 'Seasonal tips', body: 'Eat what is in season, for less.' },
    },
  },
  finalCta: {
    title: 'Ready to pay less for the same groceries?',
    body: 'In our closed test, 100+ testers already save every week. You could be next.',
    button: 'Join the waitlist',
  },
  signup: {
    title: 'Join the waitlist',
    body: "Leave your email address and be among the first to try the Mandje beta. It's free.",
    emailLabel: 'Email address',
    exampleEmail: 'name@example.com',
    submit: 'Join the waitlist',
    sending: 'Joining…',
    honeypotLabel: 'Leave this field empty',
    dismissNotice: 'Dismiss',
    note: "We'll email you to confirm your signup, and let you know when Mandje is ready. We only use your address for that.",
    privacySentence:
      "If you don't confirm within {days} days, we delete your address. Read how we handle it in our {link}.",
    privacyLink: 'privacy notice',
    checkInbox:
      "We've sent an email to {address}. Click the button in it, then confirm on the page that opens.",
    spamFolder: "Can't find it? Look in your spam folder too.",
    changeAddress: 'Change address',
    notConfirmedYet: 'Not confirmed yet? Look in your inbox and spam folder for our email with the link.',
    didYouMean: 'Did you mean {address}?',
    errors: {
      empty: 'Please enter an email address',
      malformed: (example: string) => `Please enter a valid email address (e.g., ${example})`,
    },
    notices: {
      successTitle: 'Success! 🎉',
      successBody: "You've been added to the waitlist!",
      duplicateTitle: 'Already registered',
      duplicateBody: 'This email is already on the waitlist!',
      errorTitle: 'Error',
      errorBody: 'Something went wrong. Please try again.',
    },
  },
  footer: {
    follow: 'Follow us for savings tips and news',
    socialLink: (network: string, handle: string) => `${handle} on ${network}`,
    tiktok: 'TikTok',
    tiktokPlaceholder: 'TikTok: coming soon, no link yet',
    contact: 'Contact',
    launching: 'Launching soon, all over the Netherlands.',
    runBy: (name: string) => `Run by ${name}`,
    privacy: 'Privacy notice',
  },
  notFound: { code: '404', title: 'Oops! Page not found', homeLink: 'Return to Home' },
};

export type Messages = typeof en;
