import { mkdtempSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEAVE_REQUEST_PATH } from '#contract/leave';
import { readSiteConfig, type SiteConfig } from '#contract/site-config';
import { VISITOR_TABLE_EXPIRY_ATTRIBUTE, VISITOR_TABLE_KEY } from '#contract/visit-counting';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { IN_MEMORY } from './data-dir';
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

export interface LocalWaitlistApi {
  /** `/api/*` through the API function, which answers a path it has no route for 404. */
  serve(request: IncomingMessage, response: ServerResponse): Promise<void>;
  outboxDir: string;
  /** Waits for mails under way, then closes the store. */
  close(): Promise<void>;
}

/** The runner's own dynalite, or a DynamoDB endpoint someone else runs and stops. */
type LocalStoreLocation = { dataDir: string } | { endpoint: string };

interface LocalWaitlistApiOptions {
  /** The built confirmation and leave pages (dist/.mandje). */
  confirmPagesDir: string;
  /** Known once the runner listens. */
  siteUrl: () => string;
  /** Default: `outbox/` in the data folder, or a temporary folder. */
  outboxDir?: string;
  /** Default: the MANDJE_* variables' (#contract/site-config). */
  site?: Pick<SiteConfig, 'mailFrom' | 'contactEmail'>;
  print?: (line: string) => void;
}

/**
 * The waitlist API on this machine: the real API function behind an API Gateway-shaped adapter, with the
 * mailer writing to an outbox. One per process: the function binds to the store and settings it finds when
 * first imported, as a Lambda container does.
 */
export async function startLocalWaitlistApi(
  location: LocalStoreLocation,
  options: LocalWaitlistApiOptions,
): Promise<LocalWaitlistApi> {
  const store =
    'endpoint' in location
      ? { endpoint: location.endpoint, close: async () => {} }
      : await startLocalDynamoDB(location.dataDir, options.print ? { print: options.print } : {});
  // A TABLE_NAME already set is kept.
  const tableName = process.env.TABLE_NAME ?? LOCAL_TABLE_NAME;
  try {
    // What the handler reads when it is first imported, as it reads its environment in Lambda.
    Object.assign(process.env, localStoreEnvironment(store.endpoint, tableName));
    await ensureWaitlistTable(store.endpoint, tableName);
  } catch (error) {
    await store.close();
    const older = error instanceof OlderFolderError;
    if ('endpoint' in location) {
      throw new Error(`the store at ${location.endpoint}${older ? `: ${error.message}` : ' did not answer'}`);
    }
    throw new Error(
      older
        ? `the data folder ${location.dataDir}: ${error.message} (set DATA_DIR to a new folder)`
        : `the store in ${location.dataDir} did not answer (is another program using that data folder?)`,
    );
  }
  const site = options.site ?? readSiteConfig(process.env);
  process.env.CONFIRM_PAGES_DIR = options.confirmPagesDir;
  process.env.LEAVE_PAGES_DIR = options.confirmPagesDir;
  const mail = startLocalMail({
    storeEndpoint: store.endpoint,
    tableName,
    outboxDir:
      options.outboxDir ??
      ('dataDir' in location && location.dataDir !== IN_MEMORY
        ? join(location.dataDir, 'outbox')
        : mkdtempSync(join(tmpdir(), 'mandje-outbox-'))),
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
    if (event.rawPath === WAITLIST_PATH || event.rawPath === LEAVE_REQUEST_PATH)
      mail.afterSignup(event, result);
    return result;
  });
  return {
    outboxDir: mail.outboxDir,
    serve: answer,
    close: async () => {
      stopVisitorSweep();
      await mail.close();
      visitorClient.destroy();
      await store.close();
    },
  };
}
