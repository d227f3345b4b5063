import type { ResultCopy } from './en';

export const nl = {
  backToForm: 'Terug naar het formulier',
  browserBack:
    'Met de terugknop van je browser kom je weer bij het formulier, met het adres dat je had ingevuld.',
  notSaved: 'Je adres is niet opgeslagen.',
  mailSent:
    'Open de link in onze mail en druk op de knop op de pagina die opent: dat is de laatste klik. Daarna laten we het je weten zodra Mandje klaar is.',
} satisfies ResultCopy;
