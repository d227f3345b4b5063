import type { AnnouncementText } from '../announce/announcement-text';
import { absoluteUrl, composeMail, htmlBlock, type MailEnvelope, SHARED_COPY } from './mail-layout';

const nl = {
  why: (brand: string) => `Je krijgt deze mail omdat je je hebt aangemeld voor de wachtlijst van ${brand}.`,
  leave: 'Wil je niets meer van ons horen? Meld je hier af:',
};

const en: typeof nl = {
  why: (brand) => `You are getting this email because you joined the ${brand} waitlist.`,
  leave: 'Rather not hear from us again? Leave the waitlist:',
};

const COPY = { nl, en };

/** A paragraph of the text part: a link reads as its words and then the URL, or the URL alone. */
const textParagraph = (content: AnnouncementText['paragraphs'][number]) =>
  content
    .map((part) =>
      typeof part === 'string' ? part : part.text === part.href ? part.href : `${part.text} (${part.href})`,
    )
    .join('');

/** The leave link is written out: Telecommunicatiewet art. 11.7, and Gmail and Yahoo ask for a visible one. */
export function announcementMail(input: MailEnvelope & { announcement: AnnouncementText; leaveUrl: string }) {
  const { language, brandName, contactEmail, announcement } = input;
  const leave = absoluteUrl(input.leaveUrl, 'leaveUrl');
  const copy = { ...SHARED_COPY[language], ...COPY[language] };
  const links = announcement.paragraphs.flat().filter((part) => typeof part !== 'string');
  for (const link of links) absoluteUrl(link.href, 'a link of the announcement');
  const footer = [
    [copy.why(brandName), ' ', copy.questions(contactEmail)],
    [`${copy.leave} `, { text: leave, href: leave }],
  ];
  return composeMail(input, {
    subject: announcement.subject,
    text: [...announcement.paragraphs.map(textParagraph), '--', ...footer.map(textParagraph)],
    html: [
      ...announcement.paragraphs.map((paragraph) => htmlBlock.paragraph(paragraph)),
      htmlBlock.footer(footer),
    ],
    leaveUrl: leave,
  });
}
