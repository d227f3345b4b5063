import type { ConfirmResultPage } from '#contract/confirmation';
import type { Locale } from '#contract/locales';

// With the feature, so only its pages download it; English defines the shape the Dutch is typed against.
const en = {
  page: {
    intro: 'Press the button to confirm that you want an email from us when {brand} launches.',
    kept: 'We use your address, the language you signed up in and the time you confirm for this alone, and keep them no longer than our {link} says.',
    button: 'Confirm my signup',
    sending: 'Confirming…',
  },
  results: {
    confirmed: {
      body: "Thank you! You're on the waitlist.",
      next: "You'll hear from us when {brand} launches. Until then, there's nothing more to do.",
    },
    'already-confirmed': {
      body: 'You confirmed your signup before.',
      next: "There's nothing more to do: we'll let you know when {brand} launches.",
    },
    expired: {
      body: 'This link is more than {days} days old, so it no longer works.',
      next: "Sign up again and we'll send you a new link.",
    },
    invalid: {
      body: 'This link is incomplete.',
      next: "Use the button in the email, or copy the whole link into your browser's address bar.",
    },
    unknown: {
      body: 'It was used already, or a newer email from us replaced it.',
      next: 'Use the link in our latest email, or sign up again.',
    },
    'try-again': { body: 'Your signup is not confirmed yet.', next: 'Please press the button again.' },
  } satisfies Record<ConfirmResultPage, { body: string; next: string }>,
  tryAgainWithoutScript: "Go back with your browser's Back button and press the button again.",
  signUpAgain: 'Sign up again',
};

const nl = {
  page: {
    intro: 'Druk op de knop om te bevestigen dat je een mail van ons wilt zodra {brand} van start gaat.',
    kept: 'Je adres, de taal van je aanmelding en het moment waarop je bevestigt, gebruiken we alleen hiervoor, en we bewaren ze niet langer dan in onze {link} staat.',
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
} satisfies typeof en;

export const confirmCopy = { nl, en } satisfies Record<Locale, typeof en>;
