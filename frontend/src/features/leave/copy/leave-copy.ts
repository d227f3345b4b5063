import type { Locale } from '#contract/locales';

// With the feature, so only its pages download it; English defines the shape the Dutch is typed against.
const en = {
  page: {
    intro:
      "Press the button to leave the {brand} waitlist. We then take you off the list and won't email you again.",
    nothingYet: 'Nothing happens until you press the button.',
    button: 'Leave the waitlist',
    sending: 'Leaving the waitlist…',
  },
  results: {
    done: { body: "We won't email you again.", next: "Changed your mind? You're always welcome back." },
    'try-again': { body: 'Your request was not handled.', next: 'Please press the button again.' },
  },
  tryAgainWithoutScript: "Go back with your browser's Back button and try again.",
  signUpAgain: 'Sign up again',
};

const nl = {
  page: {
    intro:
      'Druk op de knop om je af te melden voor de wachtlijst van {brand}. We halen je dan van de lijst en mailen je niet meer.',
    nothingYet: 'Er verandert pas iets als je op de knop drukt.',
    button: 'Afmelden',
    sending: 'Je wordt afgemeld…',
  },
  results: {
    done: {
      body: 'We mailen je niet meer.',
      next: 'Toch van gedachten veranderd? Je bent altijd weer welkom.',
    },
    'try-again': { body: 'Je verzoek is niet verwerkt.', next: 'Druk nog een keer op de knop.' },
  },
  tryAgainWithoutScript: 'Ga met de terugknop van je browser terug en probeer het nog een keer.',
  signUpAgain: 'Opnieuw aanmelden',
} satisfies typeof en;

export const leaveCopy = { nl, en } satisfies Record<Locale, typeof en>;
