import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, SQSEvent } from 'aws-lambda';
import { BRAND_NAME } from '#contract/brand';
import { emailKey } from '#contract/email-address';
import { LEAVE_REQUEST_PATH } from '#contract/leave';
import { readSiteConfig } from '#contract/site-config';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { readRequestBody } from '../functions/http/post-body';
import { jobsOwedBy } from '../functions/mailer/mail-job';
import { mailSender } from '../functions/mailer/mail-sender';
import type { MailTransport } from '../functions/mailer/mail-transport';
import type { WaitlistStore } from '../functions/store/store-client';
import { LOCAL_MAIL_LIMIT_TABLE_NAME, localDocumentClient } from './local-store-client';

const FIRST_RETRY_DELAY_MS = 250;
/** Failures in a round after which it stops and waits: a full disk fails every mail alike. */
const FAILURES_PER_ROUND = 3;
/** Addresses that wait in memory for their mail; more are left to the table. */
const MAX_WAITING = 1_000;

// The table is the queue (on AWS its stream feeds one): a failed mail stays owed and is retried ever later.
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
  /** Canonical addresses whose record may owe a mail, oldest first. */
  const waiting = new Set<string>();
  /** Whether the table may owe mails that are not in `waiting`: at first, what an earlier run left. */
  let scanTable = true;
  const closed = new AbortController();
  let sending: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  // Past its first value while mails are failing.
  let retryDelay = FIRST_RETRY_DELAY_MS;

  /** Hands the mailer the mails the record under `key` owes; false when any failed (they stay owed). */
  async function deliver(key: string): Promise<boolean> {
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: { email: key } }));
    // A suppressed mailbox's job too: the mailer owes it nothing and keeps it with the dead letters.
    const jobs = Item ? jobsOwedBy(Item as WaitlistRecord) : [];
    return jobs.length === 0 || (await mailer(jobs, closed.signal)) === 0;
  }

  /** The addresses waiting, else up to MAX_WAITING records the table says are owed a mail. */
  async function owedKeys(): Promise<string[]> {
    const keys = [...waiting];
    waiting.clear();
    if (keys.length > 0 || !scanTable) return keys;
    scanTable = false;
    for await (const page of paginateScan({ client }, { TableName: tableName }))
      for (const item of page.Items ?? []) {
        if (jobsOwedBy(item as WaitlistRecord).length === 0) continue;
        if (keys.length >= MAX_WAITING) {
          scanTable = true;
          return keys;
        }
        keys.push(String(item.email));
      }
    return keys;
  }

  function retryLater(): void {
    if (retryDelay === FIRST_RETRY_DELAY_MS)
      print('Mails could not be sent (the reason is logged above); they stay owed and are tried again.');
    // The rest are still owed in the table; the retry reads them again.
    scanTable = true;
    waiting.clear();
    if (closed.signal.aborted) return;
    retry = setTimeout(() => {
      retry = undefined;
      startSending();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 10_000);
  }

  // Eight at a time, as the queue would deliver them: each sender takes the next address once its mail is out.
  async function sendOwed(): Promise<void> {
    for (let keys = await owedKeys(); keys.length > 0 && !closed.signal.aborted; keys = await owedKeys()) {
      let failures = 0;
      const next = keys.values();
      const sender = async () => {
        for (const key of next) {
          if (closed.signal.aborted || failures >= FAILURES_PER_ROUND) return;
          if (!(await deliver(key).catch(() => false))) failures++;
        }
      };
      await Promise.all(Array.from({ length: 8 }, sender));
      if (failures > 0) return retryLater();
      if (retryDelay > FIRST_RETRY_DELAY_MS) print('Mails are being sent again.');
      retryDelay = FIRST_RETRY_DELAY_MS;
    }
  }

  function startSending(): void {
    // A retry to come reads the table itself.
    if (retry) return;
    sending ??= sendOwed()
      .catch(retryLater)
      .finally(() => {
        sending = undefined;
        // A signup that came in as the loop was ending.
        if (waiting.size > 0 && !closed.signal.aborted) startSending();
      });
  }
  startSending();

  return {
    /** After a signup or a leave-link request was answered: send the mail it asked for, if any. */
    afterSignup(event: APIGatewayProxyEventV2, result: APIGatewayProxyStructuredResultV2): void {
      // A signup (201, 409), a leave-link request (202), or either as a form post (303).
      const answered = [201, 202, 409, 303].includes(result.statusCode ?? 0);
      const body = answered ? readRequestBody(event) : undefined;
      const email = body?.ok ? (body.fields as { email?: unknown } | null)?.email : undefined;
      const key = typeof email === 'string' ? emailKey(email) : undefined;
      if (!key || closed.signal.aborted) return;
      if (waiting.size < MAX_WAITING) waiting.add(key);
      else scanTable = true;
      // A leave-link request marks the first record of the address's mailbox, maybe another spelling's.
      if (event.rawPath === LEAVE_REQUEST_PATH) scanTable = true;
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
