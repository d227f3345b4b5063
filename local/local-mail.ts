import { mkdirSync } from 'node:fs';
import { DeleteCommand, GetCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  DynamoDBStreamEvent,
} from 'aws-lambda';
import { MAIL_LIMIT_EXPIRY_ATTRIBUTE, MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import { emailKey } from '#contract/email-address';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { readRequestBody } from '../functions/http/request-body';
import { setMailboxSimulator } from '../functions/mailer/mail-transport';
import { LOCAL_MAIL_LIMIT_TABLE_NAME, localDocumentClient } from './local-store-client';
import { type SesEvent, simulatorEvents } from './ses-simulator';

/**
 * Confirmation mails on one machine. On AWS the table's stream wakes the mailer (functions/mailer) after a
 * signup asks for a mail; dynalite has no stream, so after each signup this looks the record up and hands
 * the mailer the stream record DynamoDB would have sent. The mailer is the real one, with the outbox for a
 * transport: every mail is an .eml file in `outboxDir`, and one printed line gives its link.
 *
 * Like the stream, it keeps what it has not delivered yet in the table rather than in memory: waiting are
 * the addresses (one entry each, however often they signed up), and the records themselves say whether a
 * mail is owed (pending, its request not marked sent, its mailbox not suppressed). A mail that fails (a
 * full or unwritable outbox, the store away) stays owed and is tried again, at growing intervals, until it
 * goes out: no restart needed. Stopping finishes the mail under way only; the next start sends everything
 * still owed, however old: unlike the stream's day, a machine may be off for longer, and a signup that was
 * answered is not dropped.
 *
 * Mail to SES's mailbox simulator is answered as SES answers it (ses-simulator.ts): its events go to the
 * real mail-events function, which marks bounced and complaining mailboxes.
 */
export interface LocalMail {
  outboxDir: string;
  /** Resolves once the mailer is loaded. */
  ready: Promise<void>;
  /**
   * After the waitlist answered a signup, or the leave-request route a request for a leave link: send the
   * mail it asked for, if any. Never waited for by it.
   */
  afterSignup(event: APIGatewayProxyEventV2, result: APIGatewayProxyStructuredResultV2): void;
  /** Finishes the mail under way; the ones still owed are sent at the next start. */
  close(): Promise<void>;
}

/** By default: past a thousand owed mails (tens of seconds of them), memory holds no more. */
const MAX_WAITING = 1_000;
/** After a failure, the owed mails are tried again after this long, doubled at each failure up to `max`. */
const RETRY_DELAY_MS = { first: 250, max: 10_000 };
/** Failures in a row after which a round stops and waits: a full disk fails every mail alike. */
const FAILURES_PER_ROUND = 3;

export function startLocalMail(options: {
  storeEndpoint: string;
  tableName: string;
  outboxDir: string;
  /** The site's origin, for the link: known once the runner listens. */
  siteUrl: () => string;
  mailFrom: string;
  contactEmail: string;
  print?: (line: string) => void;
  /** How many addresses wait in memory for their mail; more are left to the table (see sendOwed). */
  maxWaiting?: number;
  /** The first wait after a failure (then doubled, up to ten seconds). */
  retryDelayMs?: number;
}): LocalMail {
  const { outboxDir, print = console.log, maxWaiting = MAX_WAITING } = options;
  const firstRetryDelay = options.retryDelayMs ?? RETRY_DELAY_MS.first;
  mkdirSync(outboxDir, { recursive: true });
  const client = localDocumentClient(options.storeEndpoint, { maxAttempts: 1 });
  /** Addresses (canonical keys) whose record may owe a mail, oldest first; each once. */
  const waiting = new Set<string>();
  /** Whether the table may owe mails that are not in `waiting`. */
  let moreInTable = false;
  /** The loop sending the waiting mails, one at a time, while there are any. */
  let sending: Promise<void> | undefined;
  let closing = false;
  let sequence = 0;
  /** While mails fail: when the owed ones are tried again, and how long the next wait is. */
  let retry: ReturnType<typeof setTimeout> | undefined;
  let retryDelay = firstRetryDelay;
  let failing = false;
  /** SES's events for simulator mailboxes, handed to the mail-events function in order. */
  const events: SesEvent[] = [];
  let reporting: Promise<void> | undefined;

  // The real mailer, set up as the stack sets it up, with the outbox instead of SES. Loaded now, not at
  // the first signup: loading it takes a moment the event loop would otherwise lose under load.
  Object.assign(process.env, {
    SITE_URL: options.siteUrl().replace(/\/$/, ''),
    MAIL_FROM: options.mailFrom,
    CONTACT_EMAIL: options.contactEmail,
    MAIL_TRANSPORT: 'outbox',
    MAIL_OUTBOX_DIR: outboxDir,
  });
  setMailboxSimulator((mail) => {
    events.push(...simulatorEvents(mail));
    // Later, as SES's events come: the mailer first finishes its mail.
    setImmediate(startReporting);
  });
  const mailer = import('../functions/mailer/handler').then((module) => module.handler);
  const mailEvents = import('../functions/mail-events/handler').then((module) => module.handler);

  function startReporting(): void {
    reporting ??= reportEvents().finally(() => {
      reporting = undefined;
    });
  }

  /** Each event once, in order; one the function fails on is tried again a few times, as EventBridge does. */
  async function reportEvents(): Promise<void> {
    const handle = await mailEvents;
    for (let event = events.shift(); event; event = events.shift()) {
      for (let attempt = 1; ; attempt++) {
        try {
          await handle(event as never);
          break;
        } catch (error) {
          if (attempt === 3 || closing) {
            print(`An event of SES's mailbox simulator could not be recorded: ${(error as Error).name}.`);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        }
      }
    }
  }

  /**
   * Whether `record` is owed a mail, its mailbox not suppressed: a pending signup's latest confirmation
   * request not sent, or a leave-link request (the privacy page's form) not sent.
   */
  const isOwed = (record: WaitlistRecord | undefined): record is WaitlistRecord =>
    record !== undefined &&
    record.mailSuppressed === undefined &&
    ((record.status === 'pending' &&
      record.mailRequestId !== undefined &&
      record.mailRequestId !== record.mailedRequestId) ||
      (record.leaveMailRequestId !== undefined && record.leaveMailRequestId !== record.leaveMailedRequestId));

  /** Hands the mailer the record's stream record; false when the mail failed (it stays owed). */
  async function deliver(key: string): Promise<boolean> {
    const { Item } = await client.send(new GetCommand({ TableName: options.tableName, Key: { email: key } }));
    const record = Item as WaitlistRecord | undefined;
    if (!isOwed(record)) return true;
    const streamRecord: DynamoDBStreamEvent = {
      Records: [
        {
          eventName: 'MODIFY',
          eventSource: 'aws:dynamodb',
          dynamodb: {
            Keys: marshall({ email: key }) as never,
            NewImage: marshall(record, { removeUndefinedValues: true }) as never,
            SequenceNumber: String(++sequence),
            StreamViewType: 'NEW_IMAGE',
          },
        },
      ],
    };
    const handler = await mailer;
    return (await handler(streamRecord)).batchItemFailures.length === 0;
  }

  /** Marks a failure: the owed mails are read from the table again after a wait that grows. */
  function retryLater(): void {
    if (!failing) {
      print(
        'Confirmation mails could not be sent (the reason is logged above); they stay owed and are tried again.',
      );
    }
    failing = true;
    if (retry || closing) return;
    retry = setTimeout(() => {
      retry = undefined;
      moreInTable = true;
      startSending();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, RETRY_DELAY_MS.max);
  }

  function succeeded(): void {
    if (failing) print('Confirmation mails are being sent again.');
    failing = false;
    retryDelay = firstRetryDelay;
  }

  /**
   * The mails go one at a time, after the ones before: a burst of signups is answered first, and the
   * mails follow, as a stream would deliver them, rather than all at once competing with the answers.
   * When more signups wait than `maxWaiting`, the rest are left to the table, read again once these are out.
   */
  async function sendOwed(): Promise<void> {
    while (!closing) {
      let failuresInRow = 0;
      for (const key of waiting) {
        if (closing) return;
        waiting.delete(key);
        const sent = await deliver(key).catch(() => false);
        failuresInRow = sent ? 0 : failuresInRow + 1;
        if (sent) succeeded();
        else retryLater();
        // The rest are still owed in the table; the retry reads them again.
        if (failuresInRow >= FAILURES_PER_ROUND) {
          waiting.clear();
          return;
        }
      }
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

  function startSending(): void {
    sending ??= sendOwed().finally(() => {
      sending = undefined;
      // A signup that came in as the loop was ending.
      if (waiting.size > 0 && !closing) startSending();
    });
  }

  function owe(key: string): void {
    if (waiting.has(key) || waiting.size < maxWaiting) waiting.add(key);
    else moreInTable = true;
    startSending();
  }

  /**
   * Records owed a mail (isOwed), up to `maxWaiting` of them: what an earlier run left unsent, what failed,
   * or what did not fit in memory.
   */
  async function readOwed(): Promise<void> {
    const pages = paginateScan(
      { client },
      {
        TableName: options.tableName,
        ProjectionExpression: 'email',
        FilterExpression:
          'attribute_not_exists(mailSuppressed) AND ((#status = :pending AND attribute_exists(mailRequestId) AND (attribute_not_exists(mailedRequestId) OR mailedRequestId <> mailRequestId)) OR (attribute_exists(leaveMailRequestId) AND (attribute_not_exists(leaveMailedRequestId) OR leaveMailedRequestId <> leaveMailRequestId)))',
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

  /**
   * The store here has no time to live: the mail limit's windows that have ended, and with them the
   * hashed mailboxes they counted, are deleted by hand, at start and every hour.
   */
  async function forgetEndedLimitWindows(): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    const pages = paginateScan(
      { client },
      {
        TableName: LOCAL_MAIL_LIMIT_TABLE_NAME,
        ProjectionExpression: '#key',
        FilterExpression: '#expiresAt <= :now',
        ExpressionAttributeNames: {
          '#key': MAIL_LIMIT_TABLE_KEY.name,
          '#expiresAt': MAIL_LIMIT_EXPIRY_ATTRIBUTE,
        },
        ExpressionAttributeValues: { ':now': now },
      },
    );
    for await (const page of pages)
      for (const item of page.Items ?? [])
        await client
          .send(
            new DeleteCommand({
              TableName: LOCAL_MAIL_LIMIT_TABLE_NAME,
              Key: { [MAIL_LIMIT_TABLE_KEY.name]: item[MAIL_LIMIT_TABLE_KEY.name] },
              ConditionExpression: '#expiresAt <= :now',
              ExpressionAttributeNames: { '#expiresAt': MAIL_LIMIT_EXPIRY_ATTRIBUTE },
              ExpressionAttributeValues: { ':now': now },
            }),
          )
          .catch(() => {});
  }
  const sweepEndedLimits = () => forgetEndedLimitWindows().catch(() => {});
  void sweepEndedLimits();
  const limitSweep = setInterval(sweepEndedLimits, 60 * 60 * 1000);
  limitSweep.unref();

  // What an earlier run left unsent, once the mailer is there.
  moreInTable = true;
  const ready = Promise.all([mailer, mailEvents]).then(startSending);

  return {
    outboxDir,
    ready,
    afterSignup(event, result) {
      // A signup (201, 409), a leave-link request (202), or either as a form post (303).
      const answered = [201, 202, 409, 303].includes(result.statusCode ?? 0);
      const body = answered ? readRequestBody(event) : undefined;
      const email = body?.ok ? (body.fields as { email?: unknown } | null)?.email : undefined;
      const key = typeof email === 'string' ? emailKey(email) : undefined;
      if (key && !closing) owe(key);
    },
    async close() {
      closing = true;
      clearTimeout(retry);
      clearInterval(limitSweep);
      await Promise.allSettled([mailer, mailEvents, sending, reporting]);
      setMailboxSimulator(undefined);
      client.destroy();
    },
  };
}
