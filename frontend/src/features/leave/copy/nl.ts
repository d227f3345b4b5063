import type { LeaveCopy } from './en';

export const nl = {
  page: {
    intro:
      'Druk op de knop om de wachtlijst van {brand} te verlaten. We halen je dan van de lijst en mailen je niet meer.',
    nothingYet: 'Er verandert pas iets als je op de knop drukt.',
    button: 'Verlaat de wachtlijst',
    sending: 'Je verlaat de wachtlijst…',
  },
  results: {
    done: {
      body: 'We mailen je niet meer.',
      next: 'Toch van gedachten veranderd? Je bent altijd welkom terug.',
    },
    'try-again': { body: 'Je verzoek is niet verwerkt.', next: 'Druk nog een keer op de knop.' },
  },
  tryAgainWithoutScript: 'Ga met de terugknop van je browser terug en probeer het nog een keer.',
  signUpAgain: 'Opnieuw aanmelden',
} satisfies LeaveCopy;
