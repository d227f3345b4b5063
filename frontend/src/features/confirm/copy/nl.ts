import type { ConfirmCopy } from './en';

export const nl = {
  page: {
    intro: 'Druk op de knop om te bevestigen dat je een mail van ons wilt zodra {brand} van start gaat.',
    kept: 'Je adres, de taal van je aanmelding en het moment waarop je bevestigt, gebruiken we alleen hiervoor, en we bewaren ze niet langer dan in onze {link} staat.',
    privacyLink: 'privacyverklaring',
    button: 'Bevestig mijn aanmelding',
    sending: 'Je aanmelding wordt bevestigd…',
  },
  results: {
    confirmed: {
      body: 'Bedankt! Je staat op de wachtlijst.',
      next: 'Je hoort van ons zodra {brand} van start gaat. Tot die tijd hoef je niets te doen.',
    },
    'already-confirmed': {
      body: 'Je had je aanmelding al bevestigd.',
      next: 'Je hoeft niets meer te doen: we laten het je weten zodra {brand} van start gaat.',
    },
    expired: {
      body: 'Deze link is ouder dan {days} dagen en daarom niet meer geldig.',
      next: 'Meld je opnieuw aan, dan sturen we je een nieuwe link.',
    },
    invalid: {
      body: 'Deze link is niet compleet; misschien viel er een stukje weg bij het kopiëren.',
      next: 'Gebruik de knop in de mail, of kopieer de hele link naar de adresbalk van je browser.',
    },
    unknown: {
      body: 'De link is al gebruikt, of vervangen door een nieuwere mail van ons.',
      next: 'Gebruik de link in onze laatste mail, of meld je opnieuw aan.',
    },
    'try-again': { body: 'Je aanmelding is nog niet bevestigd.', next: 'Druk nog een keer op de knop.' },
  },
  tryAgainWithoutScript: 'Ga met de terugknop van je browser terug en druk nog een keer op de knop.',
  signUpAgain: 'Opnieuw aanmelden',
} satisfies ConfirmCopy;
