import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AnnouncementError,
  parseAnnouncementText,
  readAnnouncement,
} from '../../../functions/announce/announcement-text';

describe('an announcement’s text', () => {
  it('reads the subject, then paragraphs split by blank lines, lines within one joined', () => {
    const text = parseAnnouncementText('Subject:  Hallo \r\n\r\nEen\nparagraaf.\n\n\nTwee.\n', 'nl.md');
    expect(text).toEqual({ subject: 'Hallo', paragraphs: [['Een paragraaf.'], ['Twee.']] });
  });

  it('finds bare https links and [text](https://…) links, leaving sentence punctuation outside', () => {
    const { paragraphs } = parseAnnouncementText(
      'Subject: s\n\nZie https://mandje.nl/a, of [dit](https://mandje.nl/b).',
      'nl.md',
    );
    expect(paragraphs).toEqual([
      [
        'Zie ',
        { text: 'https://mandje.nl/a', href: 'https://mandje.nl/a' },
        ', of ',
        { text: 'dit', href: 'https://mandje.nl/b' },
        '.',
      ],
    ]);
  });

  it('keeps markup as text: nothing but links is read from it', () => {
    const { paragraphs } = parseAnnouncementText('Subject: s\n\n<b>vet</b> & *niet*', 'nl.md');
    expect(paragraphs).toEqual([['<b>vet</b> & *niet*']]);
  });

  it.each([
    ['no subject line', 'Hallo\n\nTekst'],
    ['no blank line after the subject', 'Subject: s\nTekst'],
    ['an empty body', 'Subject: s\n\n\n'],
    ['a link that is not https', 'Subject: s\n\n[x](http://mandje.nl)'],
    ['a control character', 'Subject: s\n\nTekst\u0007'],
  ])('is refused with %s', (_what, source) => {
    expect(() => parseAnnouncementText(source, 'nl.md')).toThrow(AnnouncementError);
  });
});

describe('an announcement’s id', () => {
  /** A folder named `id` holding both languages. */
  function folderNamed(id: string): string {
    const folder = join(mkdtempSync(join(tmpdir(), 'announce-')), id);
    mkdirSync(folder);
    writeFileSync(join(folder, 'nl.md'), 'Subject: NL\n\nTekst.');
    writeFileSync(join(folder, 'en.md'), 'Subject: EN\n\nText.');
    return folder;
  }

  it.each(['launch', 'launch-2026', 'a1', 'a'.repeat(64)])('may be %s', async (id) => {
    expect((await readAnnouncement(folderNamed(id))).id).toBe(id);
  });

  it.each(['Launch', 'launch_1', '-launch', 'launch--1', 'lañch', 'a'.repeat(65)])(
    'may not be "%s"',
    async (id) => {
      await expect(readAnnouncement(folderNamed(id))).rejects.toThrow(AnnouncementError);
    },
  );

  it('may not be empty, as the root folder’s name is', async () => {
    await expect(readAnnouncement('/')).rejects.toThrow(AnnouncementError);
  });
});
