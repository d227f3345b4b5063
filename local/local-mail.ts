import { mkdirSync } from 'node:fs';
import { GetCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  DynamoDBStreamEvent,
} from 'aws-lambda';
import { emailKey } from '#contract/email-address';
import { MAIL_REQUEST_MAX_AGE_MINUTES, type WaitlistRecord } from '#contract/waitlist-table';
import { readRequestBody } from '../functions/http/request-body';
import { localDocumentClient } from './local-store-client';

/**
 * Confirmation mails on one machine. On AWS the table's stream wakes the mailer (functions/mailer) after a
 * signup asks for a mail; dynalite has no stream, so after each signup this looks the record up and hands
 * the mailer the stream record DynamoDB would have sent. The mailer is the real one, with the outbox for a
 * transport: every mail is an .eml file in `outboxDir`, and one printed line gives its link. A mail that
 * cannot be written is tried again a few times; then one line says so, and the signup stays pending.
 *
 * Like the stream, it keeps what it has not delivered yet in the table rather than in memory: waiting are
 * the addresses (one entry each, however often they signed up), and the records themselves say whether a
 * mail is owed. Stopping finishes the mail under way only; the next start sends what is still owed and
 * was asked for within the stream's hour (MAIL_REQUEST_MAX_AGE_MINUTES), as the stream would.
 */
export interface LocalMail {
  outboxDir: string;
  /** Resolves once the mailer is loaded. */
  ready: Promise<void>;
  /** After the waitlist answered a signup: send the mail it asked for, if any. Never waited for by it. */
  afterSignup(event: APIGatewayProxyEventV2, result: APIGatewayProxyStructuredResultV2): void;
  /** Finishes the mail under way; the ones still owed are sent at the next start. */
  close(): Promise<void>;
}

const ATTEMPTS = 3;
/** By default: past a thousand owed mails (tens of seconds of them), memory holds no more. */
const MAX_WAITING = 1_000;

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
}): LocalMail {
  const { outboxDir, print = console.log, maxWaiting = MAX_WAITING } = options;
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

  // The real mailer, set up as the stack sets it up, with the outbox instead of SES. Loaded now, not at
  // the first signup: loading it takes a moment the event loop would otherwise lose under load.
  Object.assign(process.env, {
    SITE_URL: options.siteUrl().replace(/\/$/, ''),
    MAIL_FROM: options.mailFrom,
    CONTACT_EMAIL: options.contactEmail,
    MAIL_TRANSPORT: 'outbox',
    MAIL_OUTBOX_DIR: outboxDir,
  });
  const mailer = import('../functions/mailer/handler').then((module) => module.handler);

  async function deliver(key: string): Promise<void> {
    const { Item } = await client.send(new GetCommand({ TableName: options.tableName, Key: { email: key } }));
    const record = Item as WaitlistRecord | undefined;
    if (record?.status !== 'pending' || record.mailRequestId === record.mailedRequestId) return;
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
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if ((await handler(streamRecord)).batchItemFailures.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
    print(
      'A confirmation mail could not be written (see above); the signup stays pending until it is asked for again.',
    );
  }

  /**
   * The mails go one at a time, after the ones before: a burst of signups is answered first, and the
   * mails follow, as a stream would deliver them, rather than all at once competing with the answers.
   * When more signups wait than `maxWaiting`, the rest are left to the table, read again once these are out.
   */
  async function sendOwed(): Promise<void> {
    while (!closing) {
      for (const key of waiting) {
        if (closing) return;
        waiting.delete(key);
        await deliver(key).catch((error: Error) =>
          print(`A confirmation mail could not be sent: ${error.name}.`),
        );
      }
      if (!moreInTable) return;
      moreInTable = false;
      await readOwed().catch((error: Error) => {
        // Read again after the next signup, rather than over and over while the store is away.
        moreInTable = true;
        print(`Could not look up the confirmation mails still owed: ${error.name}.`);
      });
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
   * Pending records whose latest mail request is unanswered and was made within the stream's hour, up to
   * `maxWaiting` of them: what an earlier run left unsent, or what did not fit in memory.
   */
  async function readOwed(): Promise<void> {
    const since = new Date(Date.now() - MAIL_REQUEST_MAX_AGE_MINUTES * 60 * 1000).toISOString();
    const pages = paginateScan(
      { client },
      {
        TableName: options.tableName,
        ProjectionExpression: 'email',
        FilterExpression:
          '#status = :pending AND mailRequestedAt >= :since AND (attribute_not_exists(mailedRequestId) OR mailedRequestId <> mailRequestId)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'pending', ':since': since },
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

  // What an earlier run left unsent, once the mailer is there.
  moreInTable = true;
  const ready = mailer.then(startSending);

  return {
    outboxDir,
    ready,
    afterSignup(event, result) {
      const answered = [201, 409, 303].includes(result.statusCode ?? 0);
      const body = answered ? readRequestBody(event) : undefined;
      const email = body?.ok ? (body.fields as { email?: unknown } | null)?.email : undefined;
      const key = typeof email === 'string' ? emailKey(email) : undefined;
      if (key && !closing) owe(key);
    },
    async close() {
      closing = true;
      await Promise.allSettled([mailer, sending]);
      client.destroy();
    },
  };
}
