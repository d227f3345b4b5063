import type { IncomingMessage, ServerResponse } from 'node:http';
import { LEAVE_REQUEST_PATH } from '#contract/leave';
import { readSiteConfig, type SiteConfig } from '#contract/site-config';
import { VISITOR_TABLE_EXPIRY_ATTRIBUTE, VISITOR_TABLE_KEY } from '#contract/visit-counting';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { sweepExpiredItems } from './expiring-items';
import { createLambdaHttpAdapter } from './lambda-http-adapter';
import { ensureWaitlistTable, OlderFolderError, startLocalDynamoDB } from './local-dynamodb';
import { startLocalMail } from './local-mail';
import {
  LOCAL_TABLE_NAME,
  LOCAL_VISITOR_TABLE_NAME,
  localDocumentClient,
  localStoreEnvironment,
} from './local-store-client';

/** The requests that may ask for a mail: a signup, a request for a leave link. */
const MAIL_ASKING_PATHS = new Set([WAITLIST_PATH, LEAVE_REQUEST_PATH]);

export interface LocalWaitlistApi {
  /** Answers `/api/*` requests through the API function, which answers a path it has no route for 404. */
  serve(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Where the mails are written. */
  outboxDir: string;
  /** Waits for mails under way, then closes the store. */
  close(): Promise<void>;
}

/**
 * Points the AWS SDK at the local store (local-store-client.ts). The handler reads this when it is first
 * imported, exactly as it reads its environment in Lambda. A TABLE_NAME already set is kept.
 */
function pointAwsSdkAtLocalStore(endpoint: string): string {
  const tableName = process.env.TABLE_NAME ?? LOCAL_TABLE_NAME;
  Object.assign(process.env, localStoreEnvironment(endpoint, tableName));
  return tableName;
}

/**
 * The runner's own dynalite in a data folder (on a socket only this user may open), or a DynamoDB endpoint
 * someone else runs (and stops): an http:// URL or a socket path.
 */
export type LocalStoreLocation = { dataDir: string } | { endpoint: string };

/** Starts dynalite for a data folder; an endpoint given is used as it is, and left running on close. */
async function openStore(
  location: LocalStoreLocation,
  print?: (line: string) => void,
): Promise<{ endpoint: string; close(): Promise<void> }> {
  if ('endpoint' in location) return { endpoint: location.endpoint, close: async () => {} };
  return startLocalDynamoDB(location.dataDir, print ? { print } : {});
}

const describeStore = (location: LocalStoreLocation) =>
  'endpoint' in location
    ? `the store at ${location.endpoint} did not answer`
    : `the store in ${location.dataDir} did not answer (is another program using that data folder?)`;

export interface LocalWaitlistApiOptions {
  /** Where the build left the confirmation and leave pages of each language (dist/.mandje). */
  confirmPagesDir: string;
  /** The site's origin, for the links in confirmation mails: known once the runner listens. */
  siteUrl: () => string;
  /** Where confirmation mails are written; a temporary folder when the waitlist is kept in memory. */
  outboxDir: string;
  /** The sender and contact address the mails name: the MANDJE_* variables' unless given (#contract/site-config). */
  site?: Pick<SiteConfig, 'mailFrom' | 'contactEmail'>;
  print?: (line: string) => void;
}

/**
 * The waitlist API on this machine: dynalite with the production table shape, and the real API function
 * (functions/api) behind an API Gateway-shaped adapter, with the mailer writing mails to an outbox
 * (local-mail.ts). One per process: the function binds to the store and settings it finds when first
 * imported, as a Lambda container does.
 */
export async function startLocalWaitlistApi(
  location: LocalStoreLocation,
  options: LocalWaitlistApiOptions,
): Promise<LocalWaitlistApi> {
  const store = await openStore(location, options.print);
  let tableName: string;
  try {
    tableName = pointAwsSdkAtLocalStore(store.endpoint);
    await ensureWaitlistTable(store.endpoint, tableName);
  } catch (error) {
    await store.close();
    if (!(error instanceof OlderFolderError)) throw new Error(describeStore(location));
    throw new Error(
      'endpoint' in location
        ? `the store at ${location.endpoint}: ${error.message}`
        : `the data folder ${location.dataDir}: ${error.message} (set DATA_DIR to a new folder)`,
    );
  }
  const site = options.site ?? readSiteConfig(process.env);
  process.env.CONFIRM_PAGES_DIR = options.confirmPagesDir;
  process.env.LEAVE_PAGES_DIR = options.confirmPagesDir;
  const mail = startLocalMail({
    storeEndpoint: store.endpoint,
    tableName,
    outboxDir: options.outboxDir,
    siteUrl: options.siteUrl,
    mailFrom: site.mailFrom,
    contactEmail: site.contactEmail,
    print: options.print,
  });

  // The day's visitors expire with their day, as the table's time to live deletes them on AWS.
  const visitorClient = localDocumentClient(store.endpoint, { maxAttempts: 1 });
  const stopVisitorSweep = sweepExpiredItems({
    client: visitorClient,
    tableName: LOCAL_VISITOR_TABLE_NAME,
    key: VISITOR_TABLE_KEY.name,
    expiry: VISITOR_TABLE_EXPIRY_ATTRIBUTE,
  });

  const { handler: api } = await import('../functions/api/handler');
  const answer = createLambdaHttpAdapter(async (event) => {
    const result = await api(event);
    // The stream's part on AWS: the mailer sends what a signup or a leave-link request asked for.
    if (MAIL_ASKING_PATHS.has(event.rawPath)) mail.afterSignup(event, result);
    return result;
  });
  return {
    outboxDir: mail.outboxDir,
    // A path no route has: the function answers 404, as API Gateway does on AWS.
    serve: answer,
    close: async () => {
      stopVisitorSweep();
      await mail.close();
      visitorClient.destroy();
      await store.close();
    },
  };
}
