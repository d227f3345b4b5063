import type { Locale } from '#contract/locales';

// Only the result pages download it; English defines the shape the Dutch is typed against.
const en = {
  backToForm: 'Back to the form',
  browserBack: "Your browser's Back button takes you to the form with the address you typed.",
  notSaved: 'Your address was not saved.',
  mailSent:
    "Open the link in our email and press the button on the page it opens: that's the last click. After that, we'll let you know when Mandje is ready.",
};

const nl = {
  backToForm: 'Terug naar het formulier',
  browserBack:
    'Met de terugknop van je browser kom je weer bij het formulier, met het adres dat je had ingevuld.',
  notSaved: 'Je adres is niet opgeslagen.',
  mailSent:
    'Open de link in onze mail en druk op de knop op de pagina die opent: dat is de laatste klik. Daarna laten we het je weten zodra Mandje klaar is.',
} satisfies typeof en;

export const resultCopy = { nl, en } satisfies Record<Locale, typeof en>;
