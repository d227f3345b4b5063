import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, SQSRecord } from 'aws-lambda';
import { MAIL_LIMIT_EXPIRY_ATTRIBUTE, MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import { BRAND_NAME } from '#contract/brand';
import { emailKey } from '#contract/email-address';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { readRequestBody } from '../functions/http/request-body';
import { jobsOwedBy } from '../functions/mailer/mail-job';
import { mailSender } from '../functions/mailer/mail-sender';
import { type MailTransport, outboxTransport } from '../functions/mailer/mail-transport';
import type { WaitlistStore } from '../functions/store/store-client';
import { sweepExpiredItems } from './expiring-items';
import { LOCAL_MAIL_LIMIT_TABLE_NAME, localDocumentClient } from './local-store-client';

/**
 * The mail on one machine. On AWS the table's stream puts each mail a signup asks for on the mail queue,
 * and the mailer sends it from there (functions/mailer); dynalite has no stream and there is no SQS here, so
 * the queue is the table itself: after each signup this notes the address, and the records say whether a
 * mail is owed (pending, its request not marked sent, its mailbox not suppressed). The mailer is the real
 * one (functions/mailer/mail-sender.ts, handed the queue messages SQS would hand it), with the outbox for a
 * transport: every mail is an .eml file in `outboxDir`, and one printed line gives its link.
 *
 * There is no SES here, and no rate to keep: mail goes as fast as the outbox takes it (SES's pace and its
 * throttling run on the production path, test/aws).
 *
 * A mail that fails (a full or unwritable outbox, the store away) stays owed and is tried again, at
 * growing intervals, until it goes out: no restart needed. A mail that can never be sent (SES refused it
 * for good, the mailbox bounced or complained) is written to `deadLetterDir` with why, as the dead-letter
 * queue holds it on AWS. Stopping finishes the mails under way only; the next start sends everything still
 * owed, however old: a signup that was answered is not dropped.
 */
export interface LocalMail {
  outboxDir: string;
  /**
   * After the waitlist answered a signup, or the leave-request route a request for a leave link: send the
   * mail it asked for, if any. Never waited for by it.
   */
  afterSignup(event: APIGatewayProxyEventV2, result: APIGatewayProxyStructuredResultV2): void;
  /** Finishes the mails under way; the ones still owed are sent at the next start. */
  close(): Promise<void>;
}

/** By default: past a thousand owed mails (tens of seconds of them), memory holds no more. */
const MAX_WAITING = 1_000;
/** After a failure, the owed mails are tried again after this long, doubled at each failure up to `max`. */
const RETRY_DELAY_MS = { first: 250, max: 10_000 };
/** Failures in a row after which a round stops and waits: a full disk fails every mail alike. */
const FAILURES_PER_ROUND = 3;
/** Mails under way at once: their sends and store writes overlap. */
const IN_FLIGHT = 8;

export function startLocalMail(options: {
  storeEndpoint: string;
  tableName: string;
  outboxDir: string;
  /** Where mails that can never be sent are kept, with why (default: beside the outbox). */
  deadLetterDir?: string;
  /** The site's origin, for the link: known once the runner listens. */
  siteUrl: () => string;
  mailFrom: string;
  contactEmail: string;
  print?: (line: string) => void;
  /** How many addresses wait in memory for their mail; more are left to the table (see sendOwed). */
  maxWaiting?: number;
  /** The first wait after a failure (then doubled, up to ten seconds). */
  retryDelayMs?: number;
  /** Instead of the outbox (tests): a transport that fails as SES may. */
  transport?: MailTransport;
}): LocalMail {
  const { outboxDir, print = console.log, maxWaiting = MAX_WAITING } = options;
  const deadLetterDir = options.deadLetterDir ?? join(outboxDir, '..', 'dead-letters');
  const firstRetryDelay = options.retryDelayMs ?? RETRY_DELAY_MS.first;
  mkdirSync(outboxDir, { recursive: true });
  const client = localDocumentClient(options.storeEndpoint, { maxAttempts: 1 });
  /** Addresses (canonical keys) whose record may owe a mail, oldest first; each once. */
  const waiting = new Set<string>();
  /** Whether the table may owe mails that are not in `waiting`. */
  let moreInTable = false;
  /** The loop sending the waiting mails, a few at a time, while there are any. */
  let sending: Promise<void> | undefined;
  const closed = new AbortController();
  const closing = () => closed.signal.aborted;
  /** While mails fail: when the owed ones are tried again, and how long the next wait is. */
  let retry: ReturnType<typeof setTimeout> | undefined;
  let retryDelay = firstRetryDelay;
  let failing = false;
  // What other functions read of the site (the leave link's origin, the sender), as the stack sets it.
  Object.assign(process.env, {
    SITE_URL: options.siteUrl().replace(/\/$/, ''),
    MAIL_FROM: options.mailFrom,
    CONTACT_EMAIL: options.contactEmail,
  });
  // The runner's store, on a client of its own (closed with the mail), and the real mailer with it.
  const store = {
    tableName: options.tableName,
    client: localDocumentClient(options.storeEndpoint, {
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_000 },
    }),
  };
  const mailer = localMailer({
    store,
    siteUrl: options.siteUrl().replace(/\/$/, ''),
    mailFrom: options.mailFrom,
    contactEmail: options.contactEmail,
    transport: options.transport ?? outboxTransport(outboxDir, { print }),
    deadLetterDir,
    print,
  });

  /** Hands the mailer the mails the records under `keys` owe; false when any failed (they stay owed). */
  async function deliver(keys: string[]): Promise<boolean> {
    const records = await Promise.all(
      keys.map(async (key) => {
        const { Item } = await client.send(
          new GetCommand({ TableName: options.tableName, Key: { email: key } }),
        );
        return Item as WaitlistRecord | undefined;
      }),
    );
    // A suppressed mailbox's job too: the mailer owes it nothing and keeps it with the dead letters.
    const jobs = records.flatMap((record) => (record ? jobsOwedBy(record) : []));
    return jobs.length === 0 || (await mailer(jobs, closed.signal)) === 0;
  }

  /** Marks a failure: the owed mails are read from the table again after a wait that grows. */
  function retryLater(): void {
    if (!failing) {
      print('Mails could not be sent (the reason is logged above); they stay owed and are tried again.');
    }
    failing = true;
    if (retry || closing()) return;
    retry = setTimeout(() => {
      retry = undefined;
      moreInTable = true;
      startSending();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, RETRY_DELAY_MS.max);
  }

  function succeeded(): void {
    if (failing) print('Mails are being sent again.');
    failing = false;
    retryDelay = firstRetryDelay;
  }

  /**
   * The mails go a few at a time, after the ones before: a burst of signups is answered first, and the
   * mails follow, as the queue would deliver them, rather than all at once competing with the
   * answers. When more signups wait than `maxWaiting`, the rest are left to the table, read again once
   * these are out.
   */
  async function sendOwed(): Promise<void> {
    while (!closing()) {
      let failuresInRow = 0;
      // A pool, not batches: each sender takes the next address as soon as its mail is out, so none
      // waits idle while the others write.
      const sender = async (): Promise<void> => {
        for (let key = nextWaiting(); key !== undefined; key = nextWaiting()) {
          const sent = await deliver([key]).catch(() => false);
          failuresInRow = sent ? 0 : failuresInRow + 1;
          if (sent) succeeded();
          else retryLater();
          // The rest are still owed in the table; the retry reads them again.
          if (failuresInRow >= FAILURES_PER_ROUND) waiting.clear();
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
      if (closing() || failuresInRow >= FAILURES_PER_ROUND) return;
      if (!moreInTable || retry) return;
      moreInTable = false;
      const read = await readOwed().then(
        () => true,
        () => false,
      );
      if (!read) {
        retryLater();
        return;
      }
      if (waiting.size === 0) return;
    }
  }

  /** The oldest address waiting, taken off the list; none when there is none or the runner is stopping. */
  function nextWaiting(): string | undefined {
    if (closing()) return undefined;
    const [key] = waiting;
    if (key !== undefined) waiting.delete(key);
    return key;
  }

  function startSending(): void {
    sending ??= sendOwed().finally(() => {
      sending = undefined;
      // A signup that came in as the loop was ending.
      if (waiting.size > 0 && !closing()) startSending();
    });
  }

  function owe(key: string): void {
    if (waiting.has(key) || waiting.size < maxWaiting) waiting.add(key);
    else moreInTable = true;
    startSending();
  }

  /**
   * Records owed a mail, up to `maxWaiting` of them: what an earlier run left unsent, what failed,
   * or what did not fit in memory.
   */
  async function readOwed(): Promise<void> {
    const pages = paginateScan(
      { client },
      {
        TableName: options.tableName,
        ProjectionExpression: 'email',
        FilterExpression:
          '(#status = :pending AND attribute_exists(mailRequestId) AND (attribute_not_exists(mailedRequestId) OR mailedRequestId <> mailRequestId)) OR (attribute_exists(leaveMailRequestId) AND (attribute_not_exists(leaveMailedRequestId) OR leaveMailedRequestId <> leaveMailRequestId))',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending' },
      },
    );
    for await (const page of pages) {
      for (const item of page.Items ?? []) {
        if (waiting.size >= maxWaiting) {
          moreInTable = true;
          return;
        }
        waiting.add(String(item.email));
      }
    }
  }

  // The mail limit's windows that have ended, and with them the hashed mailboxes they counted.
  const stopLimitSweep = sweepExpiredItems({
    client,
    tableName: LOCAL_MAIL_LIMIT_TABLE_NAME,
    key: MAIL_LIMIT_TABLE_KEY.name,
    expiry: MAIL_LIMIT_EXPIRY_ATTRIBUTE,
  });

  // What an earlier run left unsent.
  moreInTable = true;
  startSending();

  return {
    outboxDir,
    afterSignup(event, result) {
      // A signup (201, 409), a leave-link request (202), or either as a form post (303).
      const answered = [201, 202, 409, 303].includes(result.statusCode ?? 0);
      const body = answered ? readRequestBody(event) : undefined;
      const email = body?.ok ? (body.fields as { email?: unknown } | null)?.email : undefined;
      const key = typeof email === 'string' ? emailKey(email) : undefined;
      if (key && !closing()) owe(key);
    },
    async close() {
      closed.abort();
      clearTimeout(retry);
      stopLimitSweep();
      await sending?.catch(() => undefined);
      client.destroy();
      store.client.destroy();
    },
  };
}

/**
 * The real mailer (functions/mailer/mail-sender.ts) on one machine, for the runner's mails and the operator's
 * announcement alike: `transport` for SES, with no pace but the announcement's own rate; the mails that can
 * never be sent kept in `deadLetterDir` with why, as the dead-letter queue keeps them on AWS. It is handed
 * the bodies of queue messages, as SQS hands them, and answers how many failed (they stay owed). `stop`:
 * no mail starts once it is aborted, and a wait for a turn ends, as when a Lambda's time runs out.
 */
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
  const limits = { client: options.store.client, tableName: LOCAL_MAIL_LIMIT_TABLE_NAME };
  const mailer = mailSender({
    store: options.store,
    limits,
    siteUrl: options.siteUrl,
    mailFrom: options.mailFrom,
    contactEmail: options.contactEmail,
    brandName: BRAND_NAME,
    transport: options.transport,
    // No SES rate and no quota for a day here: nothing holds the announcement back for the confirmations.
    pace: async () => ({ rate: Number.POSITIVE_INFINITY, instances: 1 }),
    queue: {
      async deadLetter(record, mailClass, reason) {
        await mkdir(deadLetterDir, { recursive: true, mode: 0o700 });
        const file = join(
          deadLetterDir,
          `${new Date().toISOString().replace(/[:.]/g, '-')}-${record.messageId}.json`,
        );
        await writeFile(
          file,
          `${JSON.stringify({ class: mailClass, reason, message: JSON.parse(record.body) })}\n`,
          { mode: 0o600 },
        );
        options.print(`A ${mailClass} mail could not be sent (${reason}); kept in ${deadLetterDir}.`);
      },
      // The message stays owed; the caller tries it again.
      async retryAfter() {},
    },
  });
  return async (bodies, stop) => {
    const { batchItemFailures } = await mailer(
      {
        Records: bodies.map(
          (body) =>
            ({
              messageId: `local-${randomUUID()}`,
              receiptHandle: '',
              body: JSON.stringify(body),
              attributes: { ApproximateReceiveCount: '1' },
              messageAttributes: {},
              md5OfBody: '',
              eventSource: 'aws:sqs',
              eventSourceARN: 'local',
              awsRegion: 'local',
            }) as unknown as SQSRecord,
        ),
      },
      // No Lambda timeout here: a throttled mail waits as long as it takes, unless the caller stops.
      { getRemainingTimeInMillis: () => (stop.aborted ? 0 : Number.POSITIVE_INFINITY), signal: stop },
    );
    return batchItemFailures.length;
  };
}
