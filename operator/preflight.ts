/**
 * `npm run waitlist -- preflight [--region R]`: what the AWS account still lacks before a launch, read and
 * never written. Finds the stack by its name, runs every check that applies to it (preflight-checks.ts,
 * preflight-site-checks.ts) and prints one line each: ok; warn (the launch works, less well); FAIL (it blocks
 * the launch), each with what to do. Exit 1 when anything fails.
 */
import { Resolver } from 'node:dns/promises';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SNSClient } from '@aws-sdk/client-sns';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { errorNameOf, faultClassOf } from '../functions/telemetry/fault-class';
import { ACCOUNT_CHECKS } from './preflight-checks';
import {
  type Check,
  type Finding,
  fail,
  findStack,
  launchOf,
  NotInStack,
  type PreflightClients,
  type PreflightDeps,
  STACK_NAME,
  type Status,
} from './preflight-launch';
import { SITE_CHECKS } from './preflight-site-checks';
import { WaitlistToolError } from './waitlist-tool-error';

/** Every check, in the order of the lines: the account through AWS's APIs, then what this machine sees. */
export const PREFLIGHT_CHECKS: Check[] = [...ACCOUNT_CHECKS, ...SITE_CHECKS];

const LABEL: Record<Status, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

/** An error's most telling name: for a failed fetch, its cause's (ENOTFOUND, ERR_TLS_CERT_ALTNAME_INVALID). */
function reasonOf(error: unknown): string {
  const { cause } = (error ?? {}) as { cause?: unknown };
  return errorNameOf(error instanceof TypeError && cause instanceof Error ? cause : error);
}

/**
 * Whether AWS refused the credentials: the classes' access_denied, or HTTP 403 for the names other services
 * give it (CloudFormation's and CloudFront's AccessDenied, SNS's AuthorizationError).
 */
const refused = (error: unknown) =>
  faultClassOf(error) === 'access_denied' ||
  (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode === 403;

/** A check that could not read what it needs: a failure too, as nothing says the launch is ready. */
function unchecked(error: unknown, check: Check): Finding {
  if (error instanceof NotInStack)
    return fail(error.message, 'deploy this version of the stack (npm run deploy)');
  const says = `could not check (${reasonOf(error)})`;
  const fault = faultClassOf(error);
  if (refused(error)) return fail(says, `these credentials need ${check.needs.join(' and ')}`);
  if (fault === 'missing_resource') return fail(says, 'deploy again (npm run deploy)');
  if (fault === 'network' || fault === 'timeout') return fail(says, 'check the network, then run this again');
  const { message = '' } = (error ?? {}) as { message?: string };
  return fail(`${says}: ${message.split('\n')[0]}`, 'run this again');
}

/**
 * Why the stack could not be read, in one sentence. Missing credentials are left as they are: the tool
 * says that the same way for every command.
 */
function stackLookupError(error: unknown, region: string): unknown {
  const name = errorNameOf(error);
  if (name === 'CredentialsProviderError') return error;
  // CloudFormation's answer for a stack that does not exist.
  if (name === 'ValidationException')
    return new WaitlistToolError(
      `there is no stack ${STACK_NAME} in ${region}: deploy it (npm run deploy), or pass the --region it is in`,
    );
  const fault = faultClassOf(error);
  if (refused(error))
    return new WaitlistToolError(
      `these AWS credentials may not read the stack ${STACK_NAME} (${name}); docs/operating.md lists what preflight needs`,
    );
  if (fault === 'network' || fault === 'timeout')
    return new WaitlistToolError(
      `could not reach AWS in ${region} (${reasonOf(error)}): is this machine online?`,
    );
  return error;
}

/** Runs the checks that apply to the deployed stack, prints a line for each and a verdict; 1 if any failed. */
export async function runPreflight(deps: PreflightDeps, out: (line: string) => void): Promise<number> {
  const stack = await findStack(deps.clients.cloudFormation, deps.region).catch((error: unknown) => {
    throw stackLookupError(error, deps.region);
  });
  const launch = launchOf(stack, deps);
  const results = await Promise.all(
    PREFLIGHT_CHECKS.map(async (check) => ({
      check,
      finding: await check.run(launch).catch((error: unknown) => unchecked(error, check)),
    })),
  );
  for (const { check, finding } of results)
    out(
      `${LABEL[finding.status]}  ${check.name}: ${finding.says}${finding.todo ? ` → ${finding.todo}` : ''}`,
    );
  const failed = results.filter(({ finding }) => finding.status === 'fail').length;
  const warned = results.filter(({ finding }) => finding.status === 'warn').length;
  const warnings = warned ? ` (${warned} warning${warned === 1 ? '' : 's'})` : '';
  out(
    failed
      ? `${failed} item${failed === 1 ? ' blocks' : 's block'} the launch${warnings}: the FAIL lines above.`
      : `Nothing blocks the launch${warnings}.`,
  );
  return failed ? 1 : 0;
}

/** The command: the operator's own credentials (the default chain), in `region` or the AWS config's. */
export async function preflight(region: string | undefined, out: (line: string) => void): Promise<number> {
  // One retry, and no waiting minutes on a network that is not there.
  const config = {
    ...(region ? { region } : {}),
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 20_000 },
  };
  const clients: PreflightClients = {
    cloudFormation: new CloudFormationClient(config),
    ses: new SESv2Client(config),
    sns: new SNSClient(config),
    lambda: new LambdaClient(config),
    cloudFront: new CloudFrontClient(config),
    dynamo: DynamoDBDocumentClient.from(new DynamoDBClient(config)),
  };
  try {
    const resolved = await clients.cloudFormation.config.region().catch(() => {
      throw new WaitlistToolError('no AWS region found (pass --region or set AWS_REGION)');
    });
    const resolver = new Resolver({ timeout: 5_000, tries: 2 });
    return await runPreflight({ region: resolved, clients, resolver, fetch, siteEnv: process.env }, out);
  } finally {
    for (const client of Object.values(clients)) client.destroy();
  }
}
