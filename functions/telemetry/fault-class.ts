// Transient faults (throttling, timeouts, 5xx, the network, a disk) may pass: the visitor hears 503.
// Permanent ones will not: 500 and an alarm. Matched by SDK error name and Node code, never by message
// (except SES's daily quota). Hand-written: the SDK's classifier only says "retry or not" and adds 14 KB.

// Error names and Node codes: a file that cannot be written for now (full, read-only, failing disk) is
// `storage`, so the work waits rather than drops.
const NAMES = {
  throttled:
    'ProvisionedThroughputExceededException RequestLimitExceeded ThrottlingException TooManyRequestsException LimitExceededException',
  timeout: 'StoreDeadlineExceeded TimeoutError AbortError RequestTimeout RequestTimeoutException ETIMEDOUT',
  service_fault: 'InternalServerError InternalFailure ServiceUnavailable ServiceUnavailableException',
  access_denied:
    'AccessDeniedException UnrecognizedClientException InvalidClientTokenId InvalidSignatureException ExpiredTokenException MissingAuthenticationTokenException CredentialsProviderError AccountSuspendedException SendingPausedException MailFromDomainNotVerifiedException MessageRejected',
  missing_resource: 'ResourceNotFoundException NotFoundException',
  invalid_request: 'ValidationException SerializationException BadRequestException',
  network: 'ECONNREFUSED ECONNRESET EPIPE ENOTFOUND EAI_AGAIN EHOSTUNREACH ENETUNREACH ECONNABORTED',
  storage: 'ENOSPC EDQUOT EROFS EACCES EPERM EIO EMFILE ENFILE EBUSY',
} as const;

export type FaultClass = keyof typeof NAMES | 'code';

const TRANSIENT: FaultClass[] = ['throttled', 'timeout', 'service_fault', 'network', 'storage'];

const BY_NAME = new Map(
  Object.entries(NAMES).flatMap(([fault, names]) =>
    names.split(' ').map((name) => [name, fault as FaultClass]),
  ),
);

type ErrorFacts = { [fact: string]: unknown; $metadata?: { httpStatusCode?: unknown } };

/** Anything unrecognised is a bug ('code'). An error wrapping others (a cause; every address refused at once,
 * as Node's AggregateError) is of the first class they have, its own name and status aside. */
export function faultClassOf(error: unknown, depth = 0): FaultClass {
  if (typeof error !== 'object' || error === null || depth > 3) return 'code';
  const facts = error as ErrorFacts;
  const named = BY_NAME.get(String(facts.name)) ?? BY_NAME.get(String(facts.code));
  if (named) return named;
  const inner = [...(Array.isArray(facts.errors) ? facts.errors : []), facts.cause]
    .map((each) => faultClassOf(each, depth + 1))
    .find((fault) => fault !== 'code');
  if (inner) return inner;
  const status = facts.$metadata?.httpStatusCode;
  if (facts.$fault === 'server' || (typeof status === 'number' && status >= 500)) return 'service_fault';
  if (status === 429) return 'throttled';
  return facts.$fault === 'client' ? 'invalid_request' : 'code';
}

export const DAILY_QUOTA_EXCEEDED = 'DailyQuotaExceeded';

const SES_SETUP_FAULTS =
  'AccessDeniedException MessageRejected MailFromDomainNotVerifiedException SendingPausedException AccountSuspendedException NotFoundException';

// For an error SendEmail threw: why this account can send no mail at all for now, or undefined. Sending
// then pauses with every mail still owed. MessageRejected is always one: SES answers it for an unverified
// sender (or sandbox recipient), while a missing mailbox is accepted and bounces later. The daily quota is
// told only by the message (SES names it like a rate throttle, and retrying in seconds would last a day).
export function setupFaultOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.name === 'LimitExceededException' || /daily message quota exceeded/i.test(error.message))
    return DAILY_QUOTA_EXCEEDED;
  return SES_SETUP_FAULTS.split(' ').includes(error.name) ? error.name : undefined;
}

export const isTransient = (fault: FaultClass) => TRANSIENT.includes(fault);

/** An SDK error's name, a Node.js error's code where its name says only "Error", or the thrown type. */
export function errorNameOf(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const { code } = error as { code?: unknown };
  return error.name === 'Error' && typeof code === 'string' && code !== '' ? code : error.name;
}
