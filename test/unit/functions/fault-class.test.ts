import {
  DynamoDBServiceException,
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ResourceNotFoundException,
  ThrottlingException,
} from '@aws-sdk/client-dynamodb';
import {
  BadRequestException,
  MessageRejected,
  SESv2ServiceException,
  TooManyRequestsException,
} from '@aws-sdk/client-sesv2';
import { describe, expect, it } from 'vitest';
import { outcomeOrFault } from '../../../functions/http/http-handler';
import { MailOutcomeUnknown } from '../../../functions/mailer/mail-transport';
import {
  errorNameOf,
  type FaultClass,
  faultClassOf,
  isTransient,
  setupFaultOf,
} from '../../../functions/telemetry/fault-class';

const metadata = { $metadata: {} };
const dynamoError = (name: string, $fault: 'client' | 'server', httpStatusCode?: number) =>
  new DynamoDBServiceException({ name, $fault, message: name, $metadata: { httpStatusCode } });
const nodeError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:8000`), { code });
/** As node:fs throws it: a plain Error whose message names the file, and the OS's code. */
const fileError = (code: string) =>
  Object.assign(new Error(`${code}: could not write, open '/outbox/.mail.tmp'`), {
    code,
    syscall: 'write',
  });

describe('faultClassOf', () => {
  it.each<[string, unknown, FaultClass]>([
    [
      'provisioned throughput exceeded',
      new ProvisionedThroughputExceededException({ message: '', ...metadata }),
      'throttled',
    ],
    ['on-demand throttling', new ThrottlingException({ message: '', ...metadata }), 'throttled'],
    ['the account’s request limit', new RequestLimitExceeded({ message: '', ...metadata }), 'throttled'],
    ['SES asking to slow down', new TooManyRequestsException({ message: '', ...metadata }), 'throttled'],
    ['an unnamed 429', dynamoError('Unknown', 'client', 429), 'throttled'],
    [
      'the request’s deadline',
      Object.assign(new Error('late'), { name: 'StoreDeadlineExceeded' }),
      'timeout',
    ],
    ['the SDK’s socket timeout', Object.assign(new Error('late'), { name: 'TimeoutError' }), 'timeout'],
    ['an aborted request', Object.assign(new Error('aborted'), { name: 'AbortError' }), 'timeout'],
    ['a connect timeout', nodeError('ETIMEDOUT'), 'timeout'],
    ['DynamoDB failing on its side', new InternalServerError({ message: '', ...metadata }), 'service_fault'],
    ['an unnamed server fault', dynamoError('SomethingNew', 'server', 500), 'service_fault'],
    [
      'a 503 without a name',
      Object.assign(new Error('x'), { $metadata: { httpStatusCode: 503 } }),
      'service_fault',
    ],
    ['a refused connection', nodeError('ECONNREFUSED'), 'network'],
    ['a cut connection', nodeError('ECONNRESET'), 'network'],
    ['a name that does not resolve', nodeError('ENOTFOUND'), 'network'],
    [
      'every address refused at once (Node’s happy eyeballs)',
      Object.assign(new AggregateError([nodeError('ECONNREFUSED'), nodeError('ECONNREFUSED')]), {
        code: undefined,
      }),
      'network',
    ],
    [
      'a refused connection as the cause',
      new Error('wrapped', { cause: nodeError('ECONNREFUSED') }),
      'network',
    ],
    ['DynamoDB access denied', dynamoError('AccessDeniedException', 'client', 400), 'access_denied'],
    [
      'SES access denied',
      new SESv2ServiceException({ name: 'AccessDeniedException', $fault: 'client', ...metadata }),
      'access_denied',
    ],
    ['unknown credentials', dynamoError('UnrecognizedClientException', 'client', 400), 'access_denied'],
    ['an access key AWS does not know', dynamoError('InvalidClientTokenId', 'client', 403), 'access_denied'],
    [
      'no credentials at all',
      Object.assign(new Error('none'), { name: 'CredentialsProviderError' }),
      'access_denied',
    ],
    [
      'SES sending paused',
      new SESv2ServiceException({ name: 'SendingPausedException', $fault: 'client', ...metadata }),
      'access_denied',
    ],
    ['a missing table', new ResourceNotFoundException({ message: '', ...metadata }), 'missing_resource'],
    ['a request the store refuses', dynamoError('ValidationException', 'client', 400), 'invalid_request'],
    [
      'SES refusing this sender (not verified, the sandbox)',
      new MessageRejected({ message: '', ...metadata }),
      'access_denied',
    ],
    ['a mail SES refuses as it is', new BadRequestException({ message: '', ...metadata }), 'invalid_request'],
    ['an unnamed client fault', dynamoError('SomethingNew', 'client', 400), 'invalid_request'],
    ['a full disk', fileError('ENOSPC'), 'storage'],
    ['a quota reached', fileError('EDQUOT'), 'storage'],
    ['a folder this user may not write', fileError('EACCES'), 'storage'],
    ['a file system mounted read-only', fileError('EROFS'), 'storage'],
    ['a failing disk', fileError('EIO'), 'storage'],
    ['too many open files', fileError('EMFILE'), 'storage'],
    ['a full disk as the cause', new Error('wrapped', { cause: fileError('ENOSPC') }), 'storage'],
    [
      'no answer from SES: the class of what broke',
      new MailOutcomeUnknown(Object.assign(new Error('late'), { name: 'TimeoutError' })),
      'timeout',
    ],
    ['a cut connection to SES', new MailOutcomeUnknown(nodeError('ECONNRESET')), 'network'],
    ['a file that is not there', fileError('ENOENT'), 'code'],
    ['a message that only mentions a full disk', new Error('ENOSPC: no space left on device'), 'code'],
    ['a bug', new TypeError('x is undefined'), 'code'],
    ['a plain error', new Error('boom'), 'code'],
    ['a thrown string', 'boom', 'code'],
    ['a thrown undefined', undefined, 'code'],
  ])('classifies %s', (_case, error, expected) => {
    expect(faultClassOf(error)).toBe(expected);
  });

  it('calls throttling, timeouts, service faults, the network and storage transient, and nothing else', () => {
    const transient = (['throttled', 'timeout', 'service_fault', 'network', 'storage'] as const).map(
      isTransient,
    );
    const permanent = (['access_denied', 'missing_resource', 'invalid_request', 'code'] as const).map(
      isTransient,
    );

    expect(transient).toEqual([true, true, true, true, true]);
    expect(permanent).toEqual([false, false, false, false]);
  });
});

describe('setupFaultOf', () => {
  const ses = (name: string, message = '') =>
    new SESv2ServiceException({ name, message, $fault: 'client', ...metadata });

  it.each([
    ['the role may not send', ses('AccessDeniedException'), 'AccessDeniedException'],
    [
      'the sender not verified, or the sandbox',
      new MessageRejected({ message: '', ...metadata }),
      'MessageRejected',
    ],
    [
      'the MAIL FROM domain not verified',
      ses('MailFromDomainNotVerifiedException'),
      'MailFromDomainNotVerifiedException',
    ],
    ['sending paused', ses('SendingPausedException'), 'SendingPausedException'],
    ['the account suspended', ses('AccountSuspendedException'), 'AccountSuspendedException'],
    ['the configuration set missing', ses('NotFoundException'), 'NotFoundException'],
    ['SES v2’s quota answer', ses('LimitExceededException'), 'DailyQuotaExceeded'],
    [
      'the quota, as SES v1 names it',
      ses('Throttling', 'Daily message quota exceeded.'),
      'DailyQuotaExceeded',
    ],
    [
      'the quota, as a throttle',
      ses('ThrottlingException', 'Daily message quota exceeded.'),
      'DailyQuotaExceeded',
    ],
    [
      'the quota, whatever its case',
      ses('TooManyRequestsException', 'daily MESSAGE quota exceeded'),
      'DailyQuotaExceeded',
    ],
  ])('calls %s a fault of the set-up', (_case, error, reason) => {
    expect(setupFaultOf(error)).toBe(reason);
  });

  it.each([
    ['the rate, which a wait fixes', ses('TooManyRequestsException', 'Maximum sending rate exceeded.')],
    ['a request refused as it is', ses('BadRequestException', 'Illegal address')],
    ['SES failing on its side', ses('InternalFailure')],
    ['a cut connection', nodeError('ECONNRESET')],
    ['a full outbox', fileError('ENOSPC')],
    ['a thrown string', 'MessageRejected'],
  ])('calls %s no fault of the set-up', (_case, error) => {
    expect(setupFaultOf(error)).toBeUndefined();
  });
});

describe('errorNameOf', () => {
  it.each<[string, unknown, string]>([
    [
      'a DynamoDB error, by its name',
      new InternalServerError({ message: '', ...metadata }),
      'InternalServerError',
    ],
    ['a full disk, by its OS code', fileError('ENOSPC'), 'ENOSPC'],
    ['an unwritable folder, by its OS code', fileError('EACCES'), 'EACCES'],
    ['a read-only file system, by its OS code', fileError('EROFS'), 'EROFS'],
    ['a refused connection, by its code', nodeError('ECONNREFUSED'), 'ECONNREFUSED'],
    [
      'a named error that also has a code',
      Object.assign(new Error('late'), { name: 'TimeoutError', code: 'ETIMEDOUT' }),
      'TimeoutError',
    ],
    ['a bug, by its type', new TypeError('x is undefined'), 'TypeError'],
    ['a plain error', new Error('boom'), 'Error'],
    ['a thrown string', 'boom', 'string'],
  ])('names %s', (_case, error, expected) => {
    expect(errorNameOf(error)).toBe(expected);
  });
});

describe('outcomeOrFault', () => {
  it('answers "try again" for a full disk, and names its code in the log', async () => {
    expect(await outcomeOrFault(() => Promise.reject(fileError('ENOSPC')))).toEqual({
      outcome: 'unavailable',
      fault: { faultClass: 'storage', errorName: 'ENOSPC' },
    });
  });

  it('answers an internal error for a bug, named by its type', async () => {
    expect(await outcomeOrFault(() => Promise.reject(new TypeError('x')))).toEqual({
      outcome: 'internal',
      fault: { faultClass: 'code', errorName: 'TypeError' },
    });
  });
});
