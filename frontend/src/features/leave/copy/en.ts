// Defines the shape the Dutch copy is typed against; with the feature, so only its pages download it.
export const en = {
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

export type LeaveCopy = typeof en;
