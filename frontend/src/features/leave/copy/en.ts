/**
 * The leave page and its results in English. This object defines the shape and the Dutch copy is typed
 * against it. It lives with the feature, so only the pages that show it download it. The headings are in
 * the page's messages (meta.leaveTitle, meta.leaveResultTitles), which name the pages too. `{brand}` marks
 * where the page puts the brand's name.
 */
export const en = {
  page: {
    intro:
      "Press the button to leave the {brand} waitlist. We then take you off the list and won't email you again.",
    nothingYet: 'Nothing happens until you press the button.',
    button: 'Leave the waitlist',
    sending: 'Leaving the waitlist…',
  },
  /**
   * What happened, and what to do now. The same whoever the link belonged to. Each thing said once: the
   * heading says the visitor left (meta.leaveResultTitles), the notice what follows, the button the way back.
   */
  results: {
    done: {
      body: "We won't email you again.",
      next: "Changed your mind? You're always welcome back.",
    },
    'try-again': {
      body: 'Your request was not handled.',
      next: 'Please press the button again.',
    },
  },
  /** What to do after a fault when the form was posted without a script, so it is no longer on screen. */
  tryAgainWithoutScript: "Go back with your browser's Back button and try again.",
  signUpAgain: 'Sign up again',
};

export type LeaveCopy = typeof en;
