/**
 * A link from a mail the local runner wrote to its outbox (one `.eml` file per mail; a dot file is one being
 * written), read as a mail client reads it, for the tests that follow a mail's link (test/e2e, test/engines).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { simpleParser } from 'mailparser';

/** The first link to `path` (`/api/confirm`, `/api/leave`) in a mail to `email`, waiting up to 10 s for it. */
export async function linkInMailTo(outbox: string, email: string, path: string): Promise<string> {
  const linkPattern = new RegExp(`https?://\\S+${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?\\S+`);
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await delay(100))
    for (const entry of await readdir(outbox, { withFileTypes: true })) {
      if (!entry.isFile() || entry.name.startsWith('.')) continue;
      const raw = await readFile(join(outbox, entry.name));
      // Most mails are someone else's: parse only those that name the address at all.
      if (!raw.includes(email)) continue;
      const mail = await simpleParser(raw);
      const to = [mail.to ?? []]
        .flat()
        .flatMap(({ value }) => value.map(({ address }) => address?.toLowerCase()));
      const link = to.includes(email.toLowerCase()) && mail.text?.match(linkPattern)?.[0];
      if (link) return link;
    }
  throw new Error(`no mail to ${email} with a ${path} link in ${outbox}`);
}
