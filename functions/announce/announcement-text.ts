import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import * as z from 'zod/mini';
import { LOCALES, type Locale } from '#contract/locales';

// A folder named after its id, holding `nl.md` and `en.md`: `Subject: …`, a blank line, then paragraphs
// separated by blank lines, with links as bare https URLs or `[text](https://…)`; nothing else is markup.

/** Safe in a key, a Message-ID and a file name. */
const ANNOUNCEMENT_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const inline = z.union([z.string(), z.object({ text: z.string(), href: z.url() })]);
export type Inline = z.infer<typeof inline>;
const text = z.object({
  subject: z.string().check(z.minLength(1)),
  paragraphs: z.array(z.array(inline)).check(z.minLength(1)),
});
export type AnnouncementText = z.infer<typeof text>;

/** `id`: what each record's `announcements` keeps, so nobody gets one twice. */
export const announcementSchema = z.object({
  id: z.string().check(z.regex(ANNOUNCEMENT_ID)),
  texts: z.object({ nl: text, en: text } satisfies Record<Locale, typeof text>),
});
export type Announcement = z.infer<typeof announcementSchema>;

const MAX_ID_LENGTH = 64;
const SUBJECT_MAX_LENGTH = 200;

export class AnnouncementError extends Error {
  override name = 'AnnouncementError';
}

// A link: [text](https://…) with no brackets in its text, or a bare https URL up to whitespace or `<`.
const LINK = /\[([^\]\n]+)\]\((https:\/\/[^)\s]+)\)|(https:\/\/[^\s<>]+)/g;
const TRAILING_PUNCTUATION = /[.,;:!?'")\]]+$/;
const hasControl = (text: string) => /\p{Cc}/u.test(text.replace(/[\n\t]/g, ''));

function inlines(paragraph: string, where: string): Inline[] {
  const parts: Inline[] = [];
  let last = 0;
  for (const match of paragraph.matchAll(LINK)) {
    const [whole, text = '', href = '', bare] = match;
    const url = bare?.replace(TRAILING_PUNCTUATION, '');
    const target = URL.parse(url ?? href);
    if (!target) throw new AnnouncementError(`${where}: ${url ?? href} is not a link`);
    if (match.index > last) parts.push(paragraph.slice(last, match.index));
    parts.push({ text: url ?? text, href: target.href });
    last = match.index + (url ?? whole).length;
  }
  if (last < paragraph.length) parts.push(paragraph.slice(last));
  if (/\[[^\]\n]*\]\((?!https:\/\/)/.test(paragraph))
    throw new AnnouncementError(`${where}: links must be https://`);
  return parts;
}

export function parseAnnouncementText(source: string, where: string): AnnouncementText {
  const lines = source
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  const refused = (why: string) => new AnnouncementError(`${where}: ${why}`);
  const subject = /^Subject:(.*)$/.exec(lines[0] ?? '')?.[1]?.trim();
  if (!subject) throw refused('the first line must be "Subject: …"');
  if (subject.length > SUBJECT_MAX_LENGTH)
    throw refused(`the subject is longer than ${SUBJECT_MAX_LENGTH} characters`);
  if ((lines[1] ?? '').trim() !== '') throw refused('a blank line must follow the subject');
  const body = lines.slice(2).join('\n');
  if (hasControl(subject) || hasControl(body)) throw refused('holds a control character');
  const paragraphs = body
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim().replace(/\s*\n\s*/g, ' '))
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => inlines(paragraph, where));
  if (paragraphs.length === 0) throw refused('the body is empty');
  return { subject, paragraphs };
}

export async function readAnnouncement(folder: string): Promise<Announcement> {
  const id = basename(resolve(folder));
  if (!ANNOUNCEMENT_ID.test(id) || id.length > MAX_ID_LENGTH)
    throw new AnnouncementError(
      `the announcement's folder name "${id}" must be lower-case letters, digits and hyphens (at most ${MAX_ID_LENGTH})`,
    );
  const entries = await Promise.all(
    LOCALES.map(async (language) => {
      const file = join(folder, `${language}.md`);
      const source = await readFile(file, 'utf8').catch(() => {
        throw new AnnouncementError(
          `${file} cannot be read: an announcement needs ${LOCALES.join('.md and ')}.md`,
        );
      });
      return [language, parseAnnouncementText(source, file)] as const;
    }),
  );
  return { id, texts: Object.fromEntries(entries) as Record<Locale, AnnouncementText> };
}
