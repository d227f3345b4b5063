/** `preflight`: what in the AWS account blocks a launch, only read; docs/deploying.md's checklist holds the rest. */
import {
  CloudFormationClient,
  GetTemplateCommand,
  paginateListStackResources,
} from '@aws-sdk/client-cloudformation';
import { CloudFrontClient, GetDistributionCommand } from '@aws-sdk/client-cloudfront';
import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { apiConcurrencyAt } from '#contract/mail-pace';
import { JSON_CONTENT_TYPE, WAITLIST_PATH } from '#contract/waitlist-api';
import { errorNameOf, faultClassOf } from '../functions/telemetry/fault-class';
import { figure } from './announce-command';
import { describeStack, STACK_NAME, WaitlistToolError } from './waitlist-store-access';

/** warn: the launch works, less well. */
type Finding = { status: 'ok' | 'warn' | 'FAIL'; says: string; todo?: string };

const ok = (says: string): Finding => ({ status: 'ok', says });
const warn = (says: string, todo: string): Finding => ({ status: 'warn', says, todo });
const fail = (says: string, todo: string): Finding => ({ status: 'FAIL', says, todo });

const EDGE_STACK_NAME = 'MandjeEdge';
const EDGE_REGION = 'us-east-1';
/** Lambda keeps this many of the account's concurrent executions unreserved, whatever is reserved. */
const UNRESERVED_MINIMUM = 100;
/** About as many as a new on-demand table's partitions; more as it grows. */
const STREAM_SHARDS = 4;

const TIMEOUTS = { connectionTimeout: 5_000, requestTimeout: 20_000 };

function clientsOf(region: string | undefined) {
  // One retry, and no waiting minutes on a network that is not there.
  const config = { region, maxAttempts: 2, requestHandler: TIMEOUTS };
  return {
    cloudFormation: new CloudFormationClient(config),
    // The edge stack's region: CloudFront takes a web ACL from there only.
    edgeCloudFormation: new CloudFormationClient({ ...config, region: EDGE_REGION }),
    ses: new SESv2Client(config),
    lambda: new LambdaClient(config),
    cloudFront: new CloudFrontClient(config),
    cloudWatch: new CloudWatchClient(config),
  };
}

type PreflightDeps = { region: string; clients: ReturnType<typeof clientsOf>; fetch: typeof fetch };
type Stack = Awaited<ReturnType<typeof findStack>> & PreflightDeps;

/** Something this version of the stack has and the deployed one lacks: deploying again fixes it. */
class NotInStack extends Error {}

const resourceOf = (stack: Stack, type: string) => {
  const [id] = stack.resources.get(type) ?? [];
  if (!id) throw new NotInStack(`the stack has no ${type}`);
  return id;
};

async function findStack(client: CloudFormationClient) {
  const stack = await describeStack(client);
  const resources = new Map<string, string[]>();
  for await (const page of paginateListStackResources({ client }, { StackName: STACK_NAME }))
    for (const { ResourceType = '', PhysicalResourceId: id } of page.StackResourceSummaries ?? [])
      if (id) resources.set(ResourceType, [...(resources.get(ResourceType) ?? []), id]);
  return { ...stack, resources };
}

/** What the concurrency check reads of the deployed template's resources. */
type Properties = {
  DefaultRouteSettings?: { ThrottlingRateLimit?: number };
  StartingPosition?: string;
  ParallelizationFactor?: number;
  ScalingConfig?: { MaximumConcurrency?: number };
  ReservedConcurrentExecutions?: number;
};

const sum = <T>(items: T[], of: (item: T) => number) => items.reduce((total, item) => total + of(item), 0);

/** `needs`: the IAM actions it reads with (docs/operating.md lists them all). */
export const PREFLIGHT_CHECKS: { name: string; needs: string[]; run(stack: Stack): Promise<Finding> }[] = [
  {
    name: 'Edge',
    needs: ['cloudformation:DescribeStacks', 'cloudfront:GetDistribution'],
    async run(stack) {
      const Id = resourceOf(stack, 'AWS::CloudFront::Distribution');
      const { Distribution } = await stack.clients.cloudFront.send(new GetDistributionCommand({ Id }));
      const acl = Distribution?.DistributionConfig?.WebACLId;
      const edge = await describeStack(stack.clients.edgeCloudFormation, EDGE_STACK_NAME).catch((error) =>
        errorNameOf(error) === 'ValidationException' ? undefined : Promise.reject(error),
      );
      const where = `${EDGE_STACK_NAME} in ${EDGE_REGION}`;
      if (!acl)
        return warn(
          'the distribution has no web ACL: no per-client limit at the edge (-c waf=false)',
          'deploy without -c waf=false for the per-client limit',
        );
      if (!edge) return fail(`there is no ${where}, whose web ACL the distribution names`, 'deploy again');
      const events = 'read its events in the CloudFormation console, fix, deploy again';
      if (!/^(CREATE|UPDATE|IMPORT)_COMPLETE$/.test(edge.status))
        return fail(`${where} is ${edge.status}`, events);
      if (!Object.values(edge.outputs).includes(acl))
        return fail(`the distribution's web ACL ${acl} is not the one ${where} holds`, 'deploy again');
      return ok(`${where} is ${edge.status}, and its web ACL guards the distribution`);
    },
  },
  {
    name: 'SES production access',
    needs: ['ses:GetAccount'],
    async run({ clients, region }) {
      const { ProductionAccessEnabled, Details } = await clients.ses.send(new GetAccountCommand({}));
      if (ProductionAccessEnabled) return ok(`the account sends to anyone from ${region}`);
      const review = Details?.ReviewDetails;
      const says = `the account is in SES's sandbox in ${region}: it mails verified addresses only`;
      return review?.Status === 'PENDING'
        ? fail(`${says}; the request for production access (case ${review.CaseId}) is pending`, 'wait for it')
        : fail(says, 'request production access (SES console → Account dashboard), a day or so ahead');
    },
  },
  {
    name: 'SES identity',
    needs: ['ses:GetEmailIdentity'],
    async run(stack) {
      const EmailIdentity = resourceOf(stack, 'AWS::SES::EmailIdentity');
      const { VerifiedForSendingStatus, VerificationStatus = 'NOT_STARTED' } = await stack.clients.ses.send(
        new GetEmailIdentityCommand({ EmailIdentity }),
      );
      if (VerifiedForSendingStatus) return ok(`${EmailIdentity} is verified for sending`);
      const todo =
        'publish its DKIM records (SES console → Identities → the domain); SES looks for them for 72 hours';
      return fail(`${EmailIdentity} is not verified (${VerificationStatus})`, todo);
    },
  },
  {
    name: 'Alarms',
    needs: ['cloudwatch:DescribeAlarms'],
    async run({ resources, clients }) {
      const AlarmNames = resources.get('AWS::CloudWatch::Alarm') ?? [];
      if (AlarmNames.length === 0) throw new NotInStack('the stack has no alarm');
      const { MetricAlarms = [] } = await clients.cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames }));
      // No signup rings it while nobody can join yet.
      const ringing = MetricAlarms.filter(
        ({ StateValue, AlarmName = '' }) => StateValue === 'ALARM' && !AlarmName.includes('SignupSilence'),
      ).map(({ AlarmName }) => AlarmName);
      if (ringing.length === 0) return ok(`${AlarmNames.length} alarms, none in ALARM but SignupSilence`);
      const todo = 'follow its runbook (docs/operating.md#the-alarms), then run preflight again';
      return fail(`in ALARM: ${ringing.join(', ')}`, todo);
    },
  },
  {
    name: 'Lambda concurrency',
    needs: ['lambda:GetAccountSettings', 'cloudformation:GetTemplate'],
    async run({ clients, region }) {
      const { AccountLimit } = await clients.lambda.send(new GetAccountSettingsCommand({}));
      const limit = AccountLimit?.ConcurrentExecutions ?? 0;
      const template = await clients.cloudFormation.send(new GetTemplateCommand({ StackName: STACK_NAME }));
      const { Resources = {} } = JSON.parse(template.TemplateBody ?? '{}') as {
        Resources?: Record<string, { Type: string; Properties?: Properties }>;
      };
      const of = (type: string) =>
        Object.values(Resources).flatMap(({ Type, Properties = {} }) => (Type === type ? [Properties] : []));
      const rate = of('AWS::ApiGatewayV2::Stage')[0]?.DefaultRouteSettings?.ThrottlingRateLimit ?? 0;
      const api = apiConcurrencyAt(rate);
      // A queue's consumer runs up to its maximum concurrency; a stream's, its factor on every shard.
      const mail = sum(of('AWS::Lambda::EventSourceMapping'), (p) =>
        p.StartingPosition
          ? (p.ParallelizationFactor ?? 1) * STREAM_SHARDS
          : (p.ScalingConfig?.MaximumConcurrency ?? 2),
      );
      const reserved = sum(of('AWS::Lambda::Function'), (p) => p.ReservedConcurrentExecutions ?? 0);
      const needed = api + mail;
      const says = `the account runs ${figure(limit)} at once; at its peak the stack needs ${figure(needed)} (the API ${figure(api)} at ${figure(rate)} requests a second, the mail functions ${figure(mail)})${reserved ? `, and reserves ${figure(reserved)}` : ''}`;
      const desired = Math.max(1_000, needed, reserved + UNRESERVED_MINIMUM);
      const raise = `ask for ${figure(desired)}: Service Quotas console → AWS Lambda → Concurrent executions → Request increase at account level, or aws service-quotas request-service-quota-increase --service-code lambda --quota-code L-B99A9384 --desired-value ${desired} --region ${region}`;
      if (limit < needed) return fail(says, raise);
      if (reserved > 0 && limit - reserved < UNRESERVED_MINIMUM)
        return fail(
          says,
          `Lambda keeps ${UNRESERVED_MINIMUM} unreserved: ${raise}, or deploy without -c apiReservedConcurrency`,
        );
      return ok(says);
    },
  },
  // An empty signup as the page posts it runs the function through CloudFront (its start-up, the origin
  // secret, SITE_ORIGINS), which refuses it before it writes anything.
  {
    name: 'API',
    needs: [],
    async run({ outputs, fetch }) {
      if (!outputs.SiteUrl) throw new NotInStack('the stack has no SiteUrl output');
      const url = new URL(WAITLIST_PATH, outputs.SiteUrl);
      const response = await fetch(url, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': JSON_CONTENT_TYPE, origin: url.origin, 'sec-fetch-site': 'same-origin' },
        redirect: 'manual',
        signal: AbortSignal.timeout(15_000),
      });
      const body = await response.text();
      const viaCloudFront = response.headers.has('x-amz-cf-id');
      const says = `an empty signup to ${WAITLIST_PATH} answers ${`${response.status} ${body.slice(0, 60)}`.trim()}${viaCloudFront ? '' : ', not from CloudFront'}`;
      const answer = `${response.status} ${/"error":"(\w+)"/.exec(body)?.[1]}`;
      if (answer === '400 invalid_request' && viaCloudFront) return ok(says);
      if (answer === '403 forbidden')
        return fail(
          `${says}: the function refuses the page’s own posts`,
          'CloudFront’s origin secret or the site’s origin (SITE_ORIGINS) is not the function’s: deploy again, and read the refusal in the API function’s log',
        );
      return fail(says, 'deploy again, and read the API function’s log and the stack’s events');
    },
  },
];

/** A check that could not read what it needs: a failure too, as nothing says the launch is ready. */
function unchecked(error: unknown, needs: string[]): Finding {
  if (error instanceof NotInStack)
    return fail(error.message, 'deploy this version of the stack (npm run deploy)');
  // For a failed fetch, its cause's name (ENOTFOUND, ERR_TLS_CERT_ALTNAME_INVALID).
  const says = `could not check (${errorNameOf(error instanceof TypeError && error.cause ? error.cause : error)})`;
  if (faultClassOf(error) === 'access_denied')
    return fail(says, `these credentials need ${needs.join(' and ')}`);
  return fail(says, 'check the network and the stack, then run this again');
}

export async function runPreflight(deps: PreflightDeps, out: (line: string) => void): Promise<number> {
  const found = await findStack(deps.clients.cloudFormation).catch((error: unknown) => {
    if (errorNameOf(error) !== 'ValidationException') throw error; // the tool explains the rest
    throw new WaitlistToolError(
      `there is no stack ${STACK_NAME} in ${deps.region}: deploy it (npm run deploy), or pass the --region it is in`,
    );
  });
  const findings = await Promise.all(
    PREFLIGHT_CHECKS.map(async ({ name, needs, run }) => ({
      name,
      ...(await run({ ...found, ...deps }).catch((error) => unchecked(error, needs))),
    })),
  );
  for (const { status, name, says, todo } of findings)
    out(`${status.padEnd(4)}  ${name}: ${says}${todo ? ` → ${todo}` : ''}`);
  const failed = findings.filter(({ status }) => status === 'FAIL').length;
  out(failed ? `${failed} of ${findings.length} checks block the launch.` : 'Nothing blocks the launch.');
  return failed ? 1 : 0;
}

export async function preflight(region: string | undefined, out: (line: string) => void): Promise<number> {
  const clients = clientsOf(region);
  try {
    const resolved = await clients.cloudFormation.config.region().catch(() => {
      throw new WaitlistToolError('no AWS region found (pass --region or set AWS_REGION)');
    });
    return await runPreflight({ region: resolved, clients, fetch }, out);
  } finally {
    for (const client of Object.values(clients)) client.destroy();
  }
}
