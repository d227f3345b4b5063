/**
 * The result pages of a signup posted without a script, in English: what to do next, beside the notices in
 * the page's messages (signup.notices), which say what happened. This object defines the shape and the
 * Dutch copy is typed against it. It lives with the feature, so only the result pages download it.
 */
export const en = {
  backToForm: 'Back to the form',
  browserBack: "Your browser's Back button takes you to the form with the address you typed.",
  notSaved: 'Your address was not saved.',
  mailSent:
    "Open the link in our email and press the button on the page it opens: that's the last click. After that, we'll let you know when Mandje is ready.",
};

export type ResultCopy = typeof en;
