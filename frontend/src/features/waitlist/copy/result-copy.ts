import type { Locale } from '#contract/locales';

// Only the result pages download it; English defines the shape the Dutch is typed against.
const en = {
  backToForm: 'Back to the form',
  browserBack: "Your browser's Back button takes you to the form with the address you typed.",
  notSaved: 'Your address was not saved.',
  mailSent:
    "Click the button in our email, then confirm on the page that opens. That's the last click: after that, we'll let you know when Mandje is ready.",
};

const nl = {
  backToForm: 'Terug naar het formulier',
  browserBack:
    'Met de terugknop van je browser kom je weer bij het formulier, met het adres dat je had ingevuld.',
  notSaved: 'Je adres is niet opgeslagen.',
  mailSent:
    'Klik op de knop in onze mail en bevestig op de pagina die dan verschijnt. Dat is de laatste klik: daarna laten we het je weten zodra Mandje klaar is.',
} satisfies typeof en;

export const resultCopy = { nl, en } satisfies Record<Locale, typeof en>;
