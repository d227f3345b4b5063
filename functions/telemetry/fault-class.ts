/**
 * What kind of fault an error is, from a small fixed set, so that the answer, the log and the alarms can
 * tell "busy" from "broken". Transient faults (the store or SES throttling, a timeout, a 5xx, a cut
 * connection, a disk that is full or cannot be written for now) may pass by themselves: the visitor is told to try again (503). Permanent ones (no
 * permission, a missing table, a request the service refuses, a bug in this code) will not: the visitor
 * hears 500 and the operator is alarmed.
 *
 * The AWS SDK v3 names each service exception after its error code and marks it `$fault: 'client' |
 * 'server'`; Node.js network and file errors carry a `code`. Matching is by those, not by message text (one
exception, SES's daily quota: setupFaultOf).
 * The operator's tool explains AWS errors to the operator by these classes too.
 *
 * Written by hand rather than with the SDK's own classifier (@smithy/service-error-classification, now a
 * shim over @smithy/core/retry): that answers only "retry or not", merging timeouts, the network and 5xx,
 * where the alarms need the kind; and it bundles 14 KB with it (the waitlist bundle 33 KB → 48 KB, its
 * import 81 → 87 ms median here), against a cold-start budget of 1.15× the SDK's own.
 */

export const TRANSIENT_FAULTS = ['throttled', 'timeout', 'service_fault', 'network', 'storage'] as const;
export const PERMANENT_FAULTS = ['access_denied', 'missing_resource', 'invalid_request', 'code'] as const;

export type TransientFault = (typeof TRANSIENT_FAULTS)[number];
export type PermanentFault = (typeof PERMANENT_FAULTS)[number];
export type FaultClass = TransientFault | PermanentFault;

const BY_NAME: Record<string, FaultClass> = {
  // DynamoDB and SES asking to slow down.
  ProvisionedThroughputExceededException: 'throttled',
  RequestLimitExceeded: 'throttled',
  ThrottlingException: 'throttled',
  TooManyRequestsException: 'throttled',
  LimitExceededException: 'throttled',
  // No answer in time: the request's own deadline, the SDK's socket timeouts.
  StoreDeadlineExceeded: 'timeout',
  TimeoutError: 'timeout',
  AbortError: 'timeout',
  RequestTimeout: 'timeout',
  RequestTimeoutException: 'timeout',
  // The service failed on its side.
  InternalServerError: 'service_fault',
  InternalFailure: 'service_fault',
  ServiceUnavailable: 'service_fault',
  ServiceUnavailableException: 'service_fault',
  // Not allowed: the role, the credentials, or SES not (or no longer) letting this account send, nor this
  // sender (MessageRejected: see setupFaultOf).
  AccessDeniedException: 'access_denied',
  UnrecognizedClientException: 'access_denied',
  InvalidClientTokenId: 'access_denied',
  InvalidSignatureException: 'access_denied',
  ExpiredTokenException: 'access_denied',
  MissingAuthenticationTokenException: 'access_denied',
  CredentialsProviderError: 'access_denied',
  AccountSuspendedException: 'access_denied',
  SendingPausedException: 'access_denied',
  MailFromDomainNotVerifiedException: 'access_denied',
  MessageRejected: 'access_denied',
  // A table, index or configuration set that is not there.
  ResourceNotFoundException: 'missing_resource',
  NotFoundException: 'missing_resource',
  // A request the service refuses as it is: sending it again changes nothing.
  ValidationException: 'invalid_request',
  SerializationException: 'invalid_request',
  BadRequestException: 'invalid_request',
};

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);

/**
 * A file that could not be written: a full disk or quota, a folder made read-only or taken away from this
 * user, the disk failing, too many files open. Each may pass (space freed, the mount fixed), and the work
 * waits meanwhile rather than being given up.
 */
const STORAGE_CODES = new Set([
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'EACCES',
  'EPERM',
  'EIO',
  'EMFILE',
  'ENFILE',
  'EBUSY',
]);

interface ErrorFacts {
  name?: unknown;
  code?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  errors?: unknown;
  cause?: unknown;
}

/** Whether `error` carries one of `codes`, also when it is wrapped (an AggregateError, a cause). */
function hasCode(error: ErrorFacts, codes: Set<string>, depth = 0): boolean {
  if (typeof error.code === 'string' && codes.has(error.code)) return true;
  if (error.code === 'ETIMEDOUT') return false;
  if (depth >= 3) return false;
  const inner = [...(Array.isArray(error.errors) ? error.errors : []), error.cause].filter(
    (candidate): candidate is ErrorFacts => typeof candidate === 'object' && candidate !== null,
  );
  return inner.some((candidate) => hasCode(candidate, codes, depth + 1));
}

/**
 * Which class of fault `error` is. An error of ours that wraps another (its `cause`) is of the cause's class.
 * Anything not recognised as the services' or the network's is a bug.
 */
export function faultClassOf(error: unknown): FaultClass {
  return classOf(error, 0);
}

function classOf(error: unknown, depth: number): FaultClass {
  if (typeof error !== 'object' || error === null) return 'code';
  const facts = error as ErrorFacts;
  const named = typeof facts.name === 'string' ? BY_NAME[facts.name] : undefined;
  if (named) return named;
  if (facts.code === 'ETIMEDOUT') return 'timeout';
  if (hasCode(facts, NETWORK_CODES)) return 'network';
  if (hasCode(facts, STORAGE_CODES)) return 'storage';
  const status = facts.$metadata?.httpStatusCode;
  if (facts.$fault === 'server' || (typeof status === 'number' && status >= 500)) return 'service_fault';
  if (status === 429) return 'throttled';
  if (facts.$fault === 'client') return 'invalid_request';
  if (typeof facts.cause === 'object' && facts.cause !== null && depth < 3)
    return classOf(facts.cause, depth + 1);
  return 'code';
}

/** Why SES sends nothing for now: its answer to a send over the account's quota for 24 hours. */
export const DAILY_QUOTA_EXCEEDED = 'DailyQuotaExceeded';

/** SendEmail's answers that are about the account's set-up, never about the one mail or person. */
const SES_SETUP_FAULTS = new Set([
  // The role may not send (ses:SendEmail, or the identity's policy).
  'AccessDeniedException',
  // The sender's identity or domain not verified yet, or, in the sandbox, the recipient not verified.
  'MessageRejected',
  'MailFromDomainNotVerifiedException',
  'SendingPausedException',
  'AccountSuspendedException',
  // The configuration set named in the send is not there.
  'NotFoundException',
]);

/**
 * For an error SES's SendEmail threw: whether it says this account, as it is set up now, can send no mail
 * at all, and if so why (the error's name, or DAILY_QUOTA_EXCEEDED); undefined for anything else. Such a
 * fault is no one's address: sending pauses and every mail stays owed until it is fixed (mail-pause.ts).
 *
 * Every MessageRejected is taken as one: SES answers it for a sender not verified, or in the sandbox a
 * recipient not verified, while a mailbox that does not exist is accepted and bounces later (mail-events
 * marks it then), so MessageRejected says nothing against the person.
 *
 * The day's quota is told by the message, the one place this file reads one: SES answers a send over it
 * with the names it uses for "slow down" (Throttling, ThrottlingException, TooManyRequestsException), and
 * only the text tells "Daily message quota exceeded" from "Maximum sending rate exceeded". Waiting a few
 * seconds, as for the rate, would retry for a day. SES v2's LimitExceededException from SendEmail is that
 * quota too.
 */
export function setupFaultOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.name === 'LimitExceededException' || /daily message quota exceeded/i.test(error.message))
    return DAILY_QUOTA_EXCEEDED;
  return SES_SETUP_FAULTS.has(error.name) ? error.name : undefined;
}

export function isTransient(fault: FaultClass): fault is TransientFault {
  return (TRANSIENT_FAULTS as readonly string[]).includes(fault);
}

/**
 * What to call `error` in a log line: an AWS SDK error's name (ThrottlingException), a Node.js error's
 * code (ENOSPC, ECONNREFUSED) where its name says only "Error", or the type of whatever else was thrown.
 */
export function errorNameOf(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const { code } = error as { code?: unknown };
  return error.name === 'Error' && typeof code === 'string' && code !== '' ? code : error.name;
}

/** What a request answers when the store or the mail service threw, and what its log line says of it. */
export interface FaultAnswer {
  outcome: 'unavailable' | 'internal';
  fault: { faultClass: FaultClass; errorName: string };
}

export function faultAnswerOf(error: unknown): FaultAnswer {
  const faultClass = faultClassOf(error);
  return {
    // Only what a retry can fix says "try again".
    outcome: isTransient(faultClass) ? 'unavailable' : 'internal',
    fault: { faultClass, errorName: errorNameOf(error) },
  };
}

/** A request's log level, from its fault: a permanent one is an error, a transient one a warning. */
export function logLevelOf(fault: FaultAnswer['fault'] | undefined): 'ERROR' | 'WARN' | 'INFO' {
  if (!fault) return 'INFO';
  return isTransient(fault.faultClass) ? 'WARN' : 'ERROR';
}
