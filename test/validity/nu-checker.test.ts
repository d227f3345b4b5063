import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '#contract/locales';
import { parseAnnouncementText } from '../../functions/announce/announcement-text';
import {
  announcementMail,
  type ComposedMail,
  confirmationMail,
  leaveLinkMail,
} from '../../functions/mailer/mail-layout';

// The W3C Nu HTML checker (vnu-jar, run by Debian's JRE) on every built page and SVG file and each mail's HTML
// part in each language, as a mail client reads it. Its CSS parser predates the stylesheet's syntax
// (`@property`, colour spaces in gradients), so its CSS messages are left out; every other error fails.

const distDir = resolve(import.meta.dirname, '../../dist');
/** The jar's path: the package exports it as a String object (its own launcher may download a JRE). */
const vnuJar = String(createRequire(import.meta.url)('vnu-jar'));

/** Every file in dist/ with this ending, dot folders included, relative to it. */
const builtFiles = (ending: string) =>
  readdirSync(distDir, { recursive: true, encoding: 'utf8' })
    .map((path) => path.split(sep).join('/'))
    .filter((path) => path.endsWith(ending) && !path.startsWith('assets/'))
    .sort();

const PAGES = builtFiles('.html');
const SVGS = builtFiles('.svg');

const LINK = 'https://mandje.nl/api/leave?lang=nl&t=abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';
const envelope = {
  to: 'ann@example.nl',
  mailFrom: 'hallo@mandje.nl',
  contactEmail: 'hallo@mandje.nl',
  brandName: 'Mandje',
  now: new Date('2026-03-03T10:00:00Z'),
  messageId: 'validity.0123456789abcdef@mandje.nl',
};
const announcement = parseAnnouncementText(
  'Subject: Mandje is er <eindelijk>!\n\nHoi,\n\nKijk op https://mandje.nl/start. Of lees [het verhaal & meer](https://mandje.nl/blog?a=1&b=2).\n',
  'nl.md',
);
const MAILS: Record<string, (language: Locale) => ComposedMail> = {
  confirmation: (language) =>
    confirmationMail({
      ...envelope,
      language,
      confirmUrl: 'https://mandje.nl/api/confirm?t=abc',
      validDays: 7,
      leaveUrl: LINK,
    }),
  announcement: (language) => announcementMail({ ...envelope, language, announcement, leaveUrl: LINK }),
  'leave link': (language) => leaveLinkMail({ ...envelope, language, leaveUrl: LINK }),
};
// The one error the pages once had (a URL with a space): a silent checker must not pass every file.
const CONTROL_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Control</title>' +
  '<link rel="icon" href="data:image/svg+xml,<svg xmlns=&quot;http://www.w3.org/2000/svg&quot;/>"></head><body></body></html>';

type NuMessage = { type: string; url?: string; message: string; extract?: string; lastLine?: number };

const workDir = mkdtempSync(join(tmpdir(), 'mandje-validity-'));
const mailDir = join(workDir, 'mails');
const controlFile = join(workDir, 'control.html');
/** The checker's errors by file (the path as given to it), each as one readable line. */
const errorsByFile = new Map<string, string[]>();

const readable = ({ lastLine, message, extract = '' }: NuMessage) =>
  `${lastLine}: ${message} ${extract.replace(/\s+/g, ' ').slice(0, 200)}`;

/** Each file checked for errors, by name: dist/ pages and SVG files, and the mails' HTML parts. */
const CHECKED: [string, string][] = [
  ...[...PAGES, ...SVGS].map((file): [string, string] => [`dist/${file}`, join(distDir, file)]),
  ...Object.keys(MAILS).flatMap((name) =>
    LOCALES.map((language): [string, string] => {
      const file = `${name.replace(' ', '-')}.${language}.html`;
      return [file, join(mailDir, file)];
    }),
  ),
];

beforeAll(async () => {
  writeFileSync(controlFile, CONTROL_PAGE);
  mkdirSync(mailDir);
  for (const [name, make] of Object.entries(MAILS))
    for (const language of LOCALES) {
      const { html } = await simpleParser(make(language).raw);
      if (typeof html !== 'string') throw new Error(`the ${name} mail has no HTML part`);
      writeFileSync(join(mailDir, `${name.replace(' ', '-')}.${language}.html`), html);
    }
  const files = [controlFile, ...CHECKED.map(([, path]) => path)];
  // Its CSS parser predates the stylesheet's syntax: CSS messages are left out.
  const flags = ['--errors-only', '--exit-zero-always', '--also-check-svg', '--format', 'json', '--stdout'];
  const { stdout } = await promisify(execFile)(
    'java',
    ['-jar', vnuJar, ...flags, '--filterpattern', 'CSS: .*', ...files],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const { messages } = JSON.parse(stdout) as { messages: NuMessage[] };
  for (const message of messages) {
    if (message.type === 'info') continue;
    const file = message.url ? decodeURIComponent(new URL(message.url).pathname) : '(no file)';
    errorsByFile.set(file, [...(errorsByFile.get(file) ?? []), readable(message)]);
  }
});

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const errorsOf = (path: string) => errorsByFile.get(path) ?? [];

describe('the W3C Nu checker', () => {
  it('reports the error in a control page, so a silent run cannot pass', () => {
    expect(errorsOf(controlFile).join('\n')).toMatch(/Bad value .* for attribute .href. on element .link./);
  });

  it('was given every page the build writes, in both languages, the token pages included', () => {
    expect(PAGES).toEqual(
      expect.arrayContaining([
        'index.html',
        'en/index.html',
        '404.html',
        'en/404.html',
        'privacy/index.html',
        'en/privacy/index.html',
        'waitlist/joined/index.html',
        'en/confirm/confirmed/index.html',
        'leave/done/index.html',
        '.mandje/confirm.nl.html',
        '.mandje/leave.en.html',
      ]),
    );
  });

  it('reports nothing about any file but those it was given', () => {
    const given = new Set([controlFile, ...CHECKED.map(([, path]) => path)]);
    expect([...errorsByFile.keys()].filter((file) => !given.has(file))).toEqual([]);
  });
});

describe('every built page and SVG file, and each mail’s HTML part in both languages, is valid', () => {
  it.each(CHECKED)('%s', (_name, path) => {
    expect(errorsOf(path)).toEqual([]);
  });
});
