import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import {
  type JoinWaitlistError,
  type JoinWaitlistResponse,
  WAITLIST_HTTP_STATUS,
} from '#contract/waitlist-api';
import { parseJoinRequest } from './join-request';
import { joinWaitlist, type WaitlistStore } from './join-waitlist';

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is required`);
  return value;
}

// Created once per container and reused by every request it serves.
const store: WaitlistStore = {
  tableName: requiredEnv('TABLE_NAME'),
  client: DynamoDBDocumentClient.from(
    new DynamoDBClient({
      // Fail within a few seconds, well inside the page's own 10 s patience, rather than hang.
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_000 },
    }),
  ),
};

/**
 * The longest a request waits for the store, retries included: the visitor hears "try again" well inside
 * the page's own 10 s patience and the function's 10 s timeout, instead of an API Gateway error page.
 */
export const STORE_DEADLINE_MS = 5_000;

class StoreDeadlineExceeded extends Error {
  override name = 'StoreDeadlineExceeded';
}

/** Runs `work` against a deadline; when it passes, `work`'s signal aborts the SDK's request and retries. */
async function withinDeadline<T>(work: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new StoreDeadlineExceeded(`no answer from the store within ${STORE_DEADLINE_MS} ms`);
      controller.abort(error);
      reject(error);
    }, STORE_DEADLINE_MS);
  });
  try {
    return await Promise.race([work(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

type Outcome = 'joined' | 'ignored_honeypot' | JoinWaitlistError;

function respond(outcome: Outcome): APIGatewayProxyStructuredResultV2 {
  // A robot caught by the honeypot is told exactly what a person would be.
  const answered = outcome === 'ignored_honeypot' ? 'joined' : outcome;
  const body: JoinWaitlistResponse = answered === 'joined' ? { status: 'joined' } : { error: answered };
  return {
    statusCode: WAITLIST_HTTP_STATUS[answered],
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...(outcome === 'method_not_allowed' ? { allow: 'POST' } : {}),
    },
    body: JSON.stringify(body),
  };
}

/** One line per request, for metrics and alarms. Never the address, never the request body. */
function log(fields: { outcome: Outcome; status: number; latencyMs: number; errorName?: string }): void {
  const line = JSON.stringify({ message: 'waitlist request', ...fields });
  if (fields.status >= 500) console.error(line);
  else console.log(line);
}

async function decide(event: APIGatewayProxyEventV2): Promise<{ outcome: Outcome; errorName?: string }> {
  const parsed = parseJoinRequest(event);
  if (!parsed.ok) return { outcome: parsed.error };
  // A robot filled the hidden field: tell it what it hopes to hear, keep nothing.
  if (parsed.request.website) return { outcome: 'ignored_honeypot' };
  try {
    const request = parsed.request;
    return { outcome: await withinDeadline((abortSignal) => joinWaitlist(store, request, { abortSignal })) };
  } catch (error) {
    return { outcome: 'unavailable', errorName: error instanceof Error ? error.name : 'UnknownError' };
  }
}

export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  const started = performance.now();
  const { outcome, errorName } = await decide(event);
  const response = respond(outcome);
  log({
    outcome,
    status: response.statusCode ?? 500,
    latencyMs: Math.round(performance.now() - started),
    errorName,
  });
  return response;
}
