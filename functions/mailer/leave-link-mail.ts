import { absoluteUrl, CRLF, composeMail, htmlBlock, type MailEnvelope, SHARED_COPY } from './mail-layout';

const nl = {
  subject: (brand: string) => `Je link om de wachtlijst van ${brand} te verlaten`,
  here: (brand: string) => `Hier is je link om de wachtlijst van ${brand} te verlaten:`,
  button: 'Verlaat de wachtlijst',
  notAsked:
    'Heb je hier niet om gevraagd? Dan hoef je niets te doen: je blijft op de wachtlijst. De link doet pas iets als je op de knop drukt op de pagina die hij opent.',
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
  return composeMail(input, {
    subject: copy.subject(brandName),
    text: [
      copy.greeting,
      copy.here(brandName),
      leave,
      copy.notAsked,
      copy.questions(contactEmail),
      signOff.join(CRLF),
    ],
    html: [
      htmlBlock.paragraph(copy.greeting),
      htmlBlock.paragraph(copy.here(brandName)),
      htmlBlock.button(copy.button, leave, copy.buttonFallback),
      htmlBlock.paragraph(copy.notAsked),
      htmlBlock.paragraph(copy.questions(contactEmail)),
      htmlBlock.signOff(signOff),
    ],
    leaveUrl: leave,
  });
}
