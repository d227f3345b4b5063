import { MessageRejected, SESv2ServiceException } from '@aws-sdk/client-sesv2';
import { describe, expect, it } from 'vitest';
import { MailOutcomeUnknown } from '../../../functions/mailer/mail-transport';
import {
  errorNameOf,
  faultClassOf,
  isTransient,
  setupFaultOf,
} from '../../../functions/telemetry/fault-class';

/** As the SDK throws it: an error of that name, client or server side, maybe with a status. */
const sdk = (name: string, $fault: 'client' | 'server' = 'client', httpStatusCode?: number, message = name) =>
  new SESv2ServiceException({ name, $fault, message, $metadata: { httpStatusCode } });
/** As node:net or node:fs throws it: a plain Error with the OS's code. */
const os = (code: string) =>
  Object.assign(new Error(`${code}: could not write '/outbox/.mail.tmp'`), { code });

/** An error as the SDK throws it for each name, and the class it is of. */
const named = (fault: string, names: string) =>
  names.split(' ').map((name): [string, unknown] => [fault, sdk(name)]);
const thrown = (name: string) => Object.assign(new Error(), { name });

describe('faultClassOf', () => {
  it.each<readonly [string, unknown]>([
    ...named('throttled', 'ProvisionedThroughputExceededException ThrottlingException RequestLimitExceeded'),
    ['throttled', sdk('TooManyRequestsException')],
    ['throttled', sdk('Unknown', 'client', 429)],
    ...['StoreDeadlineExceeded', 'TimeoutError', 'AbortError'].map(
      (name) => ['timeout', thrown(name)] as const,
    ),
    ['timeout', os('ETIMEDOUT')],
    ['timeout', new MailOutcomeUnknown(thrown('TimeoutError'))],
    ['service_fault', sdk('InternalServerError', 'server')],
    ['service_fault', sdk('SomethingNew', 'server', 500)],
    ['service_fault', Object.assign(new Error(), { $metadata: { httpStatusCode: 503 } })],
    ...['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND'].map((code) => ['network', os(code)] as const),
    // Every address refused at once (Node's happy eyeballs), a cause, and SES's lost answer name their cause.
    ['network', new AggregateError([os('ECONNREFUSED'), os('ECONNREFUSED')])],
    ['network', new Error('wrapped', { cause: os('ECONNREFUSED') })],
    ['network', new MailOutcomeUnknown(os('ECONNRESET'))],
    ...named('access_denied', 'AccessDeniedException UnrecognizedClientException InvalidClientTokenId'),
    ...named('access_denied', 'CredentialsProviderError SendingPausedException'),
    ['access_denied', new MessageRejected({ message: 'not verified', $metadata: {} })],
    ['missing_resource', sdk('ResourceNotFoundException')],
    ...named('invalid_request', 'ValidationException BadRequestException'),
    ['invalid_request', sdk('SomethingNew', 'client', 400)],
    ...['ENOSPC', 'EDQUOT', 'EACCES', 'EROFS', 'EIO', 'EMFILE'].map((code) => ['storage', os(code)] as const),
    ['storage', new Error('wrapped', { cause: os('ENOSPC') })],
    // Anything unrecognised is a bug, also an error whose message only mentions a full disk.
    ...[os('ENOENT'), new Error('ENOSPC: no space left on device'), new TypeError('x')].map(
      (error) => ['code', error] as const,
    ),
    ['code', 'boom'],
    ['code', undefined],
  ])('calls it %s: case %#', (fault, error) => {
    expect(faultClassOf(error)).toBe(fault);
  });

  it('calls throttling, timeouts, service faults, the network and storage transient, and nothing else', () => {
    const all = ['throttled', 'timeout', 'service_fault', 'network', 'storage', 'access_denied'] as const;
    const classes = [...all, 'missing_resource', 'invalid_request', 'code'] as const;
    expect(classes.filter(isTransient)).toEqual(all.slice(0, 5));
  });
});

describe('setupFaultOf', () => {
  it.each([
    'MessageRejected',
    'AccessDeniedException',
    'MailFromDomainNotVerifiedException',
    'SendingPausedException',
    'AccountSuspendedException',
    'NotFoundException',
  ])('calls %s a fault of the set-up', (name) => {
    expect(
      setupFaultOf(
        name === 'MessageRejected' ? new MessageRejected({ message: '', $metadata: {} }) : sdk(name),
      ),
    ).toBe(name);
  });

  it('calls the day’s quota spent one, however SES names it, and the rate, which a wait fixes, none', () => {
    for (const error of [
      sdk('LimitExceededException'),
      sdk('Throttling', 'client', 400, 'Daily message quota exceeded.'),
      sdk('TooManyRequestsException', 'client', 429, 'daily MESSAGE quota exceeded'),
    ])
      expect(setupFaultOf(error)).toBe('DailyQuotaExceeded');
    for (const error of [
      sdk('TooManyRequestsException', 'client', 429, 'Maximum sending rate exceeded.'),
      sdk('BadRequestException'),
      sdk('InternalFailure', 'server'),
      os('ECONNRESET'),
      'MessageRejected',
    ])
      expect(setupFaultOf(error)).toBeUndefined();
  });
});

describe('errorNameOf', () => {
  it.each<[string, unknown, string]>([
    ['an SDK error, by its name', sdk('InternalServerError', 'server'), 'InternalServerError'],
    ['a full disk, by its OS code', os('ENOSPC'), 'ENOSPC'],
    [
      'a named error that also has a code',
      Object.assign(new Error(), { name: 'TimeoutError', code: 'ETIMEDOUT' }),
      'TimeoutError',
    ],
    ['a bug, by its type', new TypeError('x is undefined'), 'TypeError'],
    ['a plain error', new Error('boom'), 'Error'],
    ['a thrown string', 'boom', 'string'],
  ])('names %s', (_case, error, expected) => {
    expect(errorNameOf(error)).toBe(expected);
  });
});
