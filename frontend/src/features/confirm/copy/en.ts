// Defines the shape the Dutch copy is typed against; with the feature, so only its pages download it.
import type { ConfirmResultPage } from '#contract/confirmation';

export const en = {
  page: {
    intro: 'Press the button to confirm that you want an email from us when {brand} launches.',
    kept: 'We use your address, the language you signed up in and the time you confirm for this alone, and keep them no longer than our {link} says.',
    privacyLink: 'privacy notice',
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

export type ConfirmCopy = typeof en;
