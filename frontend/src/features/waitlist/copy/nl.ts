import type { ResultCopy } from './en';

/** The result pages of a signup posted without a script, in Dutch, the default language. */
export const nl = {
  backToForm: 'Terug naar het formulier',
  browserBack:
    'Met de terugknop van je browser kom je weer bij het formulier, met het adres dat je had ingevuld.',
  notSaved: 'Je adres is niet opgeslagen.',
  mailSent:
    'We hebben je een mail gestuurd. Open de link daarin om je aanmelding te bevestigen; daarna laten we het je weten zodra Mandje klaar is.',
} satisfies ResultCopy;
