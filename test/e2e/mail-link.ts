/**
 * A link from a mail the local runner wrote to its outbox (one `.eml` file per mail), read as a mail client
 * reads it, for the tests that follow a mail's link as a person does (test/e2e, test/engines).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { simpleParser } from 'mailparser';

/**
 * The first link to `path` (`/api/confirm`, `/api/leave`) in a mail to `email`, waiting up to `timeoutMs`
 * for the runner to write it.
 */
export async function linkInMailTo(
  outbox: string,
  email: string,
  path: string,
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const linkPattern = new RegExp(`https?://\\S+${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?\\S+`);
  do {
    for (const text of await textsOfMailsTo(outbox, email)) {
      const link = text.match(linkPattern)?.[0];
      if (link) return link;
    }
    await delay(100);
  } while (Date.now() < deadline);
  throw new Error(`no mail to ${email} with a ${path} link in ${outbox} after ${timeoutMs} ms`);
}

/** The plain-text part of each mail in the outbox addressed to `email`. */
async function textsOfMailsTo(outbox: string, email: string): Promise<string[]> {
  // Not the dot files: a mail being written, renamed to its own name once whole.
  const files = (await readdir(outbox, { withFileTypes: true })).filter(
    (entry) => entry.isFile() && !entry.name.startsWith('.'),
  );
  const texts: string[] = [];
  for (const file of files) {
    const raw = await readFile(join(outbox, file.name));
    // Most mails are someone else's: parse only those that name the address at all.
    if (!raw.includes(email)) continue;
    const mail = await simpleParser(raw);
    const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
    if (to.some(({ value }) => value.some(({ address }) => address?.toLowerCase() === email.toLowerCase())))
      texts.push(mail.text ?? '');
  }
  return texts;
}
