/**
 * The confirmation page and its results in English. This object defines the shape and the Dutch copy is
 * typed against it. It lives with the feature, so only the pages that show it download it. The headings
 * are in the page's messages (meta.confirmTitle, meta.confirmResultTitles), which name the pages too.
 * `{name}` marks where the page puts a link or a fact: the brand, the days a link works (PENDING_DAYS).
 */
import type { ConfirmResultPage } from '#contract/confirmation';

export const en = {
  page: {
    intro: 'Press the button to confirm that you want an email from us when {brand} launches.',
    kept: 'We use your address, the language you signed up in and the time you confirm for this alone, and keep them no longer than our {link} says.',
    privacyLink: 'privacy notice',
    button: 'Confirm my signup',
    sending: 'Confirming…',
  },
  /** What happened, and what to do now, for each result page of the contract. */
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
    'try-again': {
      body: 'Your signup is not confirmed yet.',
      next: 'Please press the button again.',
    },
  } satisfies Record<ConfirmResultPage, { body: string; next: string }>,
  /** What to do after a fault when the page was posted without a script, so it is no longer on screen. */
  tryAgainWithoutScript: "Go back with your browser's Back button and press the button again.",
  signUpAgain: 'Sign up again',
};

export type ConfirmCopy = typeof en;
