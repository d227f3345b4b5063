import { absoluteUrl, CRLF, composeMail, htmlBlock, type MailEnvelope, SHARED_COPY } from './mail-layout';

export interface ConfirmationMailInput extends MailEnvelope {
  /** With the token in it; never the address. */
  confirmUrl: string;
  /** How long the link is valid and a pending signup is kept. */
  validDays: number;
  leaveUrl?: string;
}

const dagen = (days: number) => `${days} ${days === 1 ? 'dag' : 'dagen'}`;
// What is still to do comes first, as on the page after signing up; the leave link is for after confirming.
const nl = {
  subject: (brand: string) => `Bevestig je aanmelding voor de wachtlijst van ${brand}`,
  preheader: 'Nog één stap: bevestig je aanmelding met de knop in deze mail.',
  signedUp: (brand: string) =>
    `Iemand (hopelijk jij) heeft dit adres aangemeld voor de wachtlijst van ${brand}.`,
  confirmByLink: 'Was jij dat? Dan nog één stap: bevestig je aanmelding via deze link:',
  confirmByButton: 'Was jij dat? Dan nog één stap: bevestig je aanmelding met de knop hieronder.',
  button: 'Bevestig mijn aanmelding',
  validity: (days: number) => `De link is ${dagen(days)} geldig.`,
  ignore: (days: number) =>
    'Was jij het niet, of wil je toch niet op de wachtlijst? Dan kun je deze mail gewoon negeren. ' +
    `We sturen je verder niets en verwijderen je adres na ${dagen(days)}.`,
  leaveLater: 'Al bevestigd en toch geen interesse meer?',
  leave: 'Meld je hier af',
};

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;
const en: typeof nl = {
  subject: (brand) => `Confirm your signup for the ${brand} waitlist`,
  preheader: 'One more step: confirm your signup with the button in this email.',
  signedUp: (brand) => `Someone (hopefully you) used this email address to join the ${brand} waitlist.`,
  confirmByLink: 'If that was you, there is one more step: confirm your signup with this link:',
  confirmByButton: 'If that was you, there is one more step: confirm your signup with the button below.',
  button: 'Confirm my signup',
  validity: (count) => `The link works for ${days(count)}.`,
  ignore: (count) =>
    "Didn't sign up, or changed your mind? Then just ignore this email. " +
    `We won't send you anything else, and we'll delete your address after ${days(count)}.`,
  leaveLater: 'Change your mind after confirming?',
  leave: 'Leave the waitlist',
};

const COPY = { nl, en };

export function confirmationMail(input: ConfirmationMailInput) {
  const { language, brandName, contactEmail, validDays, leaveUrl } = input;
  const url = absoluteUrl(input.confirmUrl, 'confirmUrl');
  const leave = leaveUrl === undefined ? undefined : absoluteUrl(leaveUrl, 'leaveUrl');
  const copy = { ...SHARED_COPY[language], ...COPY[language] };
  const signOff = copy.signOff(brandName);
  const after = [copy.validity(validDays), copy.ignore(validDays), copy.questions(contactEmail)];

  return composeMail(input, {
    subject: copy.subject(brandName),
    preheader: copy.preheader,
    text: [
      copy.greeting,
      `${copy.signedUp(brandName)} ${copy.confirmByLink}`,
      url,
      ...after,
      signOff.join(CRLF),
      // The URL after a space and nothing after it: a plain-text reader's mail program makes it a link.
      ...(leave ? [`${copy.leaveLater} ${copy.leave}: ${leave}`] : []),
    ],
    html: [
      htmlBlock.paragraph(copy.greeting),
      htmlBlock.paragraph(`${copy.signedUp(brandName)} ${copy.confirmByButton}`),
      htmlBlock.button(copy.button, url, copy.buttonFallback),
      ...after.map((paragraph) => htmlBlock.paragraph(paragraph)),
      htmlBlock.signOff(signOff),
      // The link's words, not its URL: at 390 px the URL alone is wider than the screen.
      ...(leave ? [htmlBlock.footer([[`${copy.leaveLater} `, { text: copy.leave, href: leave }]])] : []),
    ],
    leaveUrl: leave,
  });
}
