import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { paginateScan } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { BRAND_NAME } from '#contract/brand';
import { readSiteConfig } from '#contract/site-config';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { jobsOwedBy } from '../functions/mailer/mail-job';
import { mailSender } from '../functions/mailer/mail-sender';
import type { MailTransport } from '../functions/mailer/mail-transport';
import type { WaitlistStore } from '../functions/store/store-client';
import { LOCAL_MAIL_LIMIT_TABLE_NAME, localDocumentClient } from './local-store-client';

const FIRST_RETRY_DELAY_MS = 250;

// On AWS the table's stream feeds the mail queue; here the table is the queue: its records say which mails are
// owed, read a page at a time. A failed mail stays owed and is retried ever later; a start sends all still owed.
export function startLocalMail(options: {
  storeEndpoint: string;
  tableName: string;
  /** The dead letters go beside it. */
  outboxDir: string;
  siteUrl: string;
  print?: (line: string) => void;
  /** Instead of the outbox (tests): a transport that fails as SES may. */
  transport?: MailTransport;
}) {
  const { outboxDir, tableName, print = console.log } = options;
  mkdirSync(outboxDir, { recursive: true });
  const client = localDocumentClient(options.storeEndpoint, {
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_000 },
  });
  const { mailFrom, contactEmail } = readSiteConfig(process.env);
  const mailer = localMailer({
    store: { tableName, client },
    siteUrl: options.siteUrl.replace(/\/$/, ''),
    mailFrom,
    contactEmail,
    transport: options.transport ?? outboxTransport(outboxDir, { print }),
    deadLetterDir: join(outboxDir, '..', 'dead-letters'),
    print,
  });
  const closed = new AbortController();
  // Whether the table may owe mails not sent yet: at first, what an earlier run left.
  let owed = true;
  let sending: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let retryDelay = FIRST_RETRY_DELAY_MS;

  async function sendOwed(): Promise<void> {
    while (owed && !closed.signal.aborted) {
      owed = false;
      for await (const page of paginateScan({ client }, { TableName: tableName }))
        for (const item of page.Items ?? []) {
          // A record at a time: a full disk fails the first, with no other write left under way. A suppressed
          // mailbox's job too: the mailer owes it nothing and keeps it with the dead letters.
          const jobs = jobsOwedBy(item as WaitlistRecord);
          if (jobs.length > 0 && (await mailer(jobs, closed.signal)) > 0) throw new Error('mails failed');
        }
    }
  }

  // After a failure the table still owes its mails: it is read again ever later, until a round sends them all.
  function startSending(): void {
    if (retry || closed.signal.aborted) return;
    sending ??= sendOwed()
      .then(
        () => {
          if (retryDelay > FIRST_RETRY_DELAY_MS) print('Mails are being sent again.');
          retryDelay = FIRST_RETRY_DELAY_MS;
        },
        () => {
          if (retryDelay === FIRST_RETRY_DELAY_MS)
            print(
              'Mails could not be sent (the reason is logged above); they stay owed and are tried again.',
            );
          owed = true;
          retry = setTimeout(() => {
            retry = undefined;
            startSending();
          }, retryDelay).unref();
          retryDelay = Math.min(retryDelay * 2, 10_000);
        },
      )
      .finally(() => {
        sending = undefined;
        // A signup that came in as the round was ending.
        if (owed) startSending();
      });
  }
  startSending();

  return {
    /** After a signup or a leave-link request was answered: send what the table now owes. */
    afterSignup(): void {
      owed = true;
      startSending();
    },
    /** Finishes the mails under way; the ones still owed are sent at the next start. */
    async close() {
      closed.abort();
      clearTimeout(retry);
      await sending;
      client.destroy();
    },
  };
}

// The real mailer on one machine, for the runner and the operator's announcement: given queue message bodies,
// it answers how many failed (they stay owed). Once `stop` aborts, no mail starts, as when a Lambda times out.
export function localMailer(options: {
  store: WaitlistStore;
  siteUrl: string;
  mailFrom: string;
  contactEmail: string;
  transport: MailTransport;
  deadLetterDir: string;
  print: (line: string) => void;
}): (bodies: unknown[], stop: AbortSignal) => Promise<number> {
  const { deadLetterDir } = options;
  const mailer = mailSender({
    ...options,
    limits: { client: options.store.client, tableName: LOCAL_MAIL_LIMIT_TABLE_NAME },
    brandName: BRAND_NAME,
    // No SES rate or daily quota here: nothing holds the announcement back for the confirmations.
    pace: async () => ({ rate: Number.POSITIVE_INFINITY, instances: 1 }),
    queue: {
      async deadLetter(record, mailClass, reason) {
        await mkdir(deadLetterDir, { recursive: true, mode: 0o700 });
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        const body = JSON.stringify({ class: mailClass, reason, message: JSON.parse(record.body) });
        await writeFile(join(deadLetterDir, `${stamp}-${record.messageId}.json`), `${body}\n`, {
          mode: 0o600,
        });
        options.print(`A ${mailClass} mail could not be sent (${reason}); kept in ${deadLetterDir}.`);
      },
      // The message stays owed; the caller tries it again.
      async retryAfter() {},
    },
  });
  return async (bodies, stop) => {
    const Records = bodies.map((body) => ({
      messageId: `local-${randomUUID()}`,
      body: JSON.stringify(body),
      attributes: { ApproximateReceiveCount: '1' },
    }));
    // No Lambda timeout here: a throttled mail waits as long as it takes, unless the caller stops.
    const remaining = () => (stop.aborted ? 0 : Number.POSITIVE_INFINITY);
    const answer = await mailer({ Records } as SQSEvent, {
      getRemainingTimeInMillis: remaining,
      signal: stop,
    });
    return answer.batchItemFailures.length;
  };
}

const PARTIAL = '.partial';

// One machine: each mail an .eml file named by its Message-ID (a repeat replaces it); a line says where.
export function outboxTransport(dir: string, { print = console.log } = {}): MailTransport {
  // Partial files left by a process stopped mid-write; a folder not there yet is made at the first send.
  try {
    for (const name of readdirSync(dir)) if (name.endsWith(PARTIAL)) rmSync(join(dir, name), { force: true });
  } catch {}
  return {
    async send(mail) {
      await mkdir(dir, { recursive: true });
      const name = mail.messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._@+-]/g, '_');
      const file = join(dir, `${name}.eml`);
      // Whole or not at all: a partial file, synced, renamed, then the folder synced.
      const partial = join(dir, `.${process.pid}.${randomBytes(4).toString('hex')}${PARTIAL}`);
      await writeFile(partial, mail.raw, { flag: 'wx', mode: 0o600, flush: true })
        .then(() => rename(partial, file))
        .catch(async (error) => {
          await rm(partial, { force: true }).catch(() => {});
          throw error;
        });
      const folder = await open(dir, 'r');
      await folder.sync().finally(() => folder.close());
      if (mail.kind === 'leave-link') print(`Leave-link mail in ${file}`);
      else if (mail.kind === 'announcement') print(`Announcement in ${file}`);
      else print(`Confirmation mail in ${file}: ${mail.confirmUrl}`);
    },
  };
}
