// Defines the shape the Dutch copy is typed against; with the feature, so only the result pages download it.
export const en = {
  backToForm: 'Back to the form',
  browserBack: "Your browser's Back button takes you to the form with the address you typed.",
  notSaved: 'Your address was not saved.',
  mailSent:
    "Open the link in our email and press the button on the page it opens: that's the last click. After that, we'll let you know when Mandje is ready.",
};

export type ResultCopy = typeof en;
