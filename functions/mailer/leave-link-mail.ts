import { absoluteUrl, CRLF, composeMail, htmlBlock, type MailEnvelope, SHARED_COPY } from './mail-layout';

const nl = {
  subject: (brand: string) => `Je afmeldlink voor de wachtlijst van ${brand}`,
  here: (brand: string) => `Hier is je link om je af te melden voor de wachtlijst van ${brand}:`,
  button: 'Afmelden',
  notAsked:
    'Heb je hier niet om gevraagd? Dan hoef je niets te doen: je blijft op de wachtlijst. Er gebeurt pas iets als je op de pagina achter de link op de knop drukt.',
};

const en: typeof nl = {
  subject: (brand) => `Your link to leave the ${brand} waitlist`,
  here: (brand) => `Here is your link to leave the ${brand} waitlist:`,
  button: 'Leave the waitlist',
  notAsked:
    "Didn't ask for this? Then there is nothing to do: you stay on the waitlist. The link does nothing until you press the button on the page it opens.",
};

const COPY = { nl, en };

export function leaveLinkMail(input: MailEnvelope & { leaveUrl: string }) {
  const { language, brandName, contactEmail } = input;
  const leave = absoluteUrl(input.leaveUrl, 'leaveUrl');
  const copy = { ...SHARED_COPY[language], ...COPY[language] };
  const signOff = copy.signOff(brandName);
  const before = [copy.greeting, copy.here(brandName)];
  const after = [copy.notAsked, copy.questions(contactEmail)];
  return composeMail(input, {
    subject: copy.subject(brandName),
    text: [...before, leave, ...after, signOff.join(CRLF)],
    html: [
      ...before.map((paragraph) => htmlBlock.paragraph(paragraph)),
      htmlBlock.button(copy.button, leave, copy.buttonFallback),
      ...after.map((paragraph) => htmlBlock.paragraph(paragraph)),
      htmlBlock.signOff(signOff),
    ],
    leaveUrl: leave,
  });
}
