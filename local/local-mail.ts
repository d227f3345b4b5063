import { mkdirSync } from 'node:fs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  DynamoDBStreamEvent,
} from 'aws-lambda';
import { emailKey } from '#contract/email-address';
import type { WaitlistRecord } from '#contract/waitlist-table';
import { readRequestBody } from '../functions/http/request-body';
import { localDocumentClient } from './local-store-client';

/**
 * Confirmation mails on one machine. On AWS the table's stream wakes the mailer (functions/mailer) after a
 * signup asks for a mail; dynalite has no stream, so after each signup this looks the record up and hands
 * the mailer the stream record DynamoDB would have sent. The mailer is the real one, with the outbox for a
 * transport: every mail is an .eml file in `outboxDir`, and one printed line gives its link. A mail that
 * cannot be written is tried again a few times; then one line says so, and the signup stays pending.
 */
export interface LocalMail {
  outboxDir: string;
  /** Resolves once the mailer is loaded. */
  ready: Promise<void>;
  /** After the waitlist answered a signup: send the mail it asked for, if any. Never waited for by it. */
  afterSignup(event: APIGatewayProxyEventV2, result: APIGatewayProxyStructuredResultV2): void;
  /** Waits for the mails under way. */
  close(): Promise<void>;
}

const ATTEMPTS = 3;

export function startLocalMail(options: {
  storeEndpoint: string;
  tableName: string;
  outboxDir: string;
  /** The site's origin, for the link: known once the runner listens. */
  siteUrl: () => string;
  mailFrom: string;
  contactEmail: string;
  print?: (line: string) => void;
}): LocalMail {
  const { outboxDir, print = console.log } = options;
  mkdirSync(outboxDir, { recursive: true });
  const client = localDocumentClient(options.storeEndpoint, { maxAttempts: 1 });
  let queue: Promise<void> = Promise.resolve();
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
            StreamViewType: 'NEW_AND_OLD_IMAGES',
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

  return {
    outboxDir,
    ready: mailer.then(() => {}),
    afterSignup(event, result) {
      const answered = [201, 409, 303].includes(result.statusCode ?? 0);
      const body = answered ? readRequestBody(event) : undefined;
      const email = body?.ok ? (body.fields as { email?: unknown } | null)?.email : undefined;
      const key = typeof email === 'string' ? emailKey(email) : undefined;
      if (!key) return;
      // One mail at a time, after the ones before: a burst of signups is answered first, and the mails
      // follow, as a stream would deliver them, rather than all at once competing with the answers.
      queue = queue.then(() =>
        deliver(key).catch((error: Error) => print(`A confirmation mail could not be sent: ${error.name}.`)),
      );
    },
    async close() {
      await Promise.allSettled([mailer, queue]);
      client.destroy();
    },
  };
}
