/** `preflight`: what the AWS account lacks for a launch, only read. warn: the launch works, less well. */
import { Resolver } from 'node:dns/promises';
import {
  CloudFormationClient,
  GetTemplateCommand,
  paginateListStackResources,
} from '@aws-sdk/client-cloudformation';
import { CloudFrontClient, GetDistributionCommand } from '@aws-sdk/client-cloudfront';
import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  GetAccountCommand,
  GetConfigurationSetEventDestinationsCommand,
  GetEmailIdentityCommand,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { paginateListSubscriptionsByTopic, SNSClient } from '@aws-sdk/client-sns';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { apiConcurrencyAt } from '#contract/mail-pace';
import { readSiteConfig, type SiteEnvironment } from '#contract/site-config';
import { LANGUAGE_HOMES } from '#contract/site-serving';
import { JSON_CONTENT_TYPE, WAITLIST_PATH } from '#contract/waitlist-api';
import { quotaReserve } from '../functions/mailer/mail-pause';
import { errorNameOf, faultClassOf } from '../functions/telemetry/fault-class';
import { daysNeeded, figure } from './announce-command';
import { countByStatus, describeStack, STACK_NAME, WaitlistToolError } from './waitlist-store-access';

type Finding = { status: 'ok' | 'warn' | 'FAIL'; says: string; todo?: string };

const ok = (says: string): Finding => ({ status: 'ok', says });
const warn = (says: string, todo: string): Finding => ({ status: 'warn', says, todo });
const fail = (says: string, todo: string): Finding => ({ status: 'FAIL', says, todo });

interface DnsResolver {
  resolveCname(name: string): Promise<string[]>;
  resolve4(name: string): Promise<string[]>;
  resolveTxt(name: string): Promise<string[][]>;
}

const EDGE_STACK_NAME = 'MandjeEdge';
const EDGE_REGION = 'us-east-1';

function clientsOf(region: string | undefined) {
  // One retry, and no waiting minutes on a network that is not there.
  const config = {
    region,
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 20_000 },
  };
  return {
    cloudFormation: new CloudFormationClient(config),
    // The edge stack's region: CloudFront takes a web ACL from there only.
    edgeCloudFormation: new CloudFormationClient({ ...config, region: EDGE_REGION }),
    ses: new SESv2Client(config),
    sns: new SNSClient(config),
    lambda: new LambdaClient(config),
    cloudFront: new CloudFrontClient(config),
    cloudWatch: new CloudWatchClient(config),
    dynamo: DynamoDBDocumentClient.from(new DynamoDBClient(config)),
  };
}

export interface PreflightDeps {
  region: string;
  clients: ReturnType<typeof clientsOf>;
  resolver: DnsResolver;
  fetch: typeof fetch;
  siteEnv: SiteEnvironment;
}

/** What the checks read of the deployed template's resources. */
type Properties = {
  DefaultRouteSettings?: { ThrottlingRateLimit?: number };
  StartingPosition?: string;
  ParallelizationFactor?: number;
  ScalingConfig?: { MaximumConcurrency?: number };
  ReservedConcurrentExecutions?: number;
};
type DeployedStack = Awaited<ReturnType<typeof findStack>>;

/** Something this version of the stack has and the deployed one lacks: deploying again fixes it. */
class NotInStack extends Error {}
const notInStack = (what: string): never => {
  throw new NotInStack(`the stack has no ${what}`);
};
const resourceOf = (stack: DeployedStack, type: string) => stack.resources.get(type)?.[0] ?? notInStack(type);
// infra/ names the outputs; the tool may not import infra/.
const outputOf = (stack: DeployedStack, name: 'SiteUrl' | 'TableName' | 'AlarmTopicArn') =>
  stack.outputs[name] ?? notInStack(`${name} output`);
/** CloudFormation's answer for a stack that does not exist. */
const noSuchStack = (error: unknown) => errorNameOf(error) === 'ValidationException';

async function findStack(client: CloudFormationClient) {
  const stack = await describeStack(client);
  const resources = new Map<string, string[]>();
  for await (const page of paginateListStackResources({ client }, { StackName: STACK_NAME }))
    for (const { ResourceType, PhysicalResourceId } of page.StackResourceSummaries ?? [])
      if (ResourceType && PhysicalResourceId)
        resources.set(ResourceType, [...(resources.get(ResourceType) ?? []), PhysicalResourceId]);
  return { ...stack, resources };
}

/** Each answer read once, however many checks ask for it. */
function memo<T>(read: (key: string) => Promise<T>) {
  const answers = new Map<string, Promise<T>>();
  return (key = '') => answers.get(key) ?? (answers.set(key, read(key)).get(key) as Promise<T>);
}

function launchOf(stack: DeployedStack, deps: PreflightDeps) {
  const { ses, cloudFront, cloudFormation } = deps.clients;
  // A POST is the page's own (same origin), with `post` as its JSON body.
  const fetchSite = async (path: string, post?: string) => {
    const url = new URL(path, outputOf(stack, 'SiteUrl'));
    const headers = {
      'content-type': JSON_CONTENT_TYPE,
      origin: url.origin,
      'sec-fetch-site': 'same-origin',
    };
    const response = await deps.fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
      ...(post === undefined ? {} : { method: 'POST', body: post, headers }),
    });
    const via = response.headers.has('x-amz-cf-id') || /cloudfront/i.test(response.headers.get('via') ?? '');
    return { status: response.status, viaCloudFront: via, body: await response.text() };
  };
  return {
    ...deps,
    stack,
    fetchSite,
    page: memo((path) => fetchSite(path)),
    sesAccount: memo(() => ses.send(new GetAccountCommand({}))),
    identity: memo(async () => {
      const domain = resourceOf(stack, 'AWS::SES::EmailIdentity');
      return { domain, ...(await ses.send(new GetEmailIdentityCommand({ EmailIdentity: domain }))) };
    }),
    distribution: memo(async () => {
      const Id = resourceOf(stack, 'AWS::CloudFront::Distribution');
      const { Distribution } = await cloudFront.send(new GetDistributionCommand({ Id }));
      if (!Distribution) throw new NotInStack(`CloudFront has no distribution ${Id}`);
      return Distribution;
    }),
    template: memo(async () => {
      const { TemplateBody = '{}' } = await cloudFormation.send(
        new GetTemplateCommand({ StackName: STACK_NAME }),
      );
      const { Resources = {} } = JSON.parse(TemplateBody) as {
        Resources?: Record<string, { Type: string; Properties?: Properties }>;
      };
      // The properties of the resources of that type.
      return (type: string) =>
        Object.values(Resources).flatMap((resource) =>
          resource.Type === type ? [resource.Properties ?? {}] : [],
        );
    }),
  };
}

/** `needs`: the IAM actions it reads with (docs/operating.md lists them all). */
type Check = { name: string; needs: string[]; run(launch: ReturnType<typeof launchOf>): Promise<Finding> };
const check = (name: string, needs: string[], run: Check['run']): Check => ({ name, needs, run });

const plural = (count: number, word: string) => `${figure(count)} ${word}${count === 1 ? '' : 's'}`;
const sum = <T>(items: T[], of: (item: T) => number) => items.reduce((total, item) => total + of(item), 0);

/** Lambda keeps this many of the account's concurrent executions unreserved, whatever is reserved. */
const UNRESERVED_MINIMUM = 100;
/** About as many as a new on-demand table's partitions; more as it grows. */
const STREAM_SHARDS = 4;

/** A stack's status: complete is ok, a rolled-back update warns, anything else blocks. */
function stackFinding(says: string, status: string): Finding {
  if (/^(CREATE|UPDATE|IMPORT)_COMPLETE$/.test(status)) return ok(says);
  if (status === 'UPDATE_ROLLBACK_COMPLETE')
    return warn(says, 'the last deploy failed and was rolled back: read its events, fix, deploy again');
  if (status.endsWith('_IN_PROGRESS')) return fail(says, 'a deploy is under way: run this when it ends');
  return fail(says, 'read the stack’s events in the CloudFormation console, fix, and deploy again');
}

const sameName = (a: string, b: string) =>
  a.toLowerCase().replace(/\.$/, '') === b.toLowerCase().replace(/\.$/, '');

/** A lookup's records; none when the name or the type has none (NXDOMAIN, NODATA). */
const records = <T>(lookup: Promise<T[]>): Promise<T[]> =>
  lookup.catch((error: unknown) => {
    if (['ENOTFOUND', 'ENODATA'].includes(String((error as { code?: unknown }).code))) return [];
    throw error;
  });

/** What React writes for the five characters it escapes in text. */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };

export const PREFLIGHT_CHECKS: Check[] = [
  check(
    'Stack',
    ['cloudformation:DescribeStacks', 'cloudformation:ListStackResources'],
    async ({ stack, region }) => stackFinding(`${STACK_NAME} in ${region} is ${stack.status}`, stack.status),
  ),
  check(
    'Edge',
    ['cloudformation:DescribeStacks', 'cloudfront:GetDistribution'],
    async ({ distribution, clients }) => {
      const acl = (await distribution()).DistributionConfig?.WebACLId || undefined;
      const edge = await describeStack(clients.edgeCloudFormation, EDGE_STACK_NAME).catch((error: unknown) =>
        noSuchStack(error) ? undefined : Promise.reject(error),
      );
      const where = `${EDGE_STACK_NAME} in ${EDGE_REGION}`;
      const noLimit = 'the distribution has no web ACL: no per-client limit at the edge (-c waf=false)';
      if (!edge)
        return acl
          ? fail(`there is no ${where}, whose web ACL the distribution names`, 'deploy again')
          : warn(noLimit, 'deploy without -c waf=false for the per-client limit');
      const finding = stackFinding(`${where} is ${edge.status}`, edge.status);
      if (finding.status !== 'ok') return finding;
      if (!acl) return warn(noLimit, `deploy without -c waf=false, or delete ${where} if that is meant`);
      if (!Object.values(edge.outputs).includes(acl))
        return fail(`the distribution's web ACL ${acl} is not the one ${where} holds`, 'deploy again');
      return ok(`${where} is ${edge.status}, and its web ACL guards the distribution`);
    },
  ),
  check('SES production access', ['ses:GetAccount'], async ({ sesAccount, region }) => {
    const { ProductionAccessEnabled, Details } = await sesAccount();
    if (ProductionAccessEnabled) return ok(`the account sends to anyone from ${region}`);
    const review = Details?.ReviewDetails;
    const says = `the account is in SES's sandbox in ${region}: it mails verified addresses only`;
    return review?.Status === 'PENDING'
      ? fail(`${says}; the request for production access (case ${review.CaseId}) is pending`, 'wait for it')
      : fail(says, 'request production access (SES console → Account dashboard), a day or so ahead');
  }),
  check('SES sending', ['ses:GetAccount'], async ({ sesAccount }) => {
    const { SendingEnabled, EnforcementStatus = 'HEALTHY' } = await sesAccount();
    const says = `sending is ${SendingEnabled ? 'enabled' : 'paused'}, enforcement status ${EnforcementStatus}`;
    const reputation = 'see SES console → Reputation metrics, and the case AWS opened';
    if (!SendingEnabled || EnforcementStatus === 'SHUTDOWN') return fail(says, reputation);
    return EnforcementStatus === 'HEALTHY' ? ok(says) : warn(says, reputation);
  }),
  check('SES quota', ['ses:GetAccount', 'dynamodb:Scan'], async ({ sesAccount, stack, clients }) => {
    const { SendQuota: { MaxSendRate = 0, Max24HourSend = 0, SentLast24Hours = 0 } = {} } =
      await sesAccount();
    const tableName = outputOf(stack, 'TableName');
    const { confirmed } = await countByStatus({ client: clients.dynamo, tableName });
    if (Max24HourSend < 0) return ok(`${figure(MaxSendRate)} a second, no quota a day`);
    const quota = `${figure(MaxSendRate)} a second, ${figure(Max24HourSend)} in 24 hours (${figure(SentLast24Hours)} sent in the last 24)`;
    const days = daysNeeded(confirmed, { max24HourSend: Max24HourSend, sentLast24Hours: SentLast24Hours });
    const people = `the ${figure(confirmed)} confirmed ${confirmed === 1 ? 'person' : 'people'}`;
    const raise = 'ask for a higher quota (SES console → Account dashboard → Request a quota increase)';
    if (!Number.isFinite(days))
      return fail(`${quota}: nothing is left for the announcement after the confirmations’ reserve`, raise);
    if (days <= 1) return ok(`${quota}: the announcement to ${people} fits in one day`);
    return warn(
      `${quota}: the announcement to ${people} takes ${plural(days, 'day')}, keeping ${figure(quotaReserve(Max24HourSend))} a day for confirmations`,
      `${raise}, or let it take the days`,
    );
  }),
  check('SES identity', ['ses:GetEmailIdentity'], async ({ identity }) => {
    const { domain, VerifiedForSendingStatus, VerificationStatus = 'NOT_STARTED' } = await identity();
    if (VerifiedForSendingStatus) return ok(`${domain} is verified for sending`);
    return fail(
      `${domain} is not verified (${VerificationStatus})`,
      'publish its DKIM records (the SES DKIM line); SES looks for them for 72 hours',
    );
  }),
  check('SES DKIM', ['ses:GetEmailIdentity'], async ({ identity }) => {
    const { domain, DkimAttributes: { Status = 'NOT_STARTED', SigningEnabled, Tokens = [] } = {} } =
      await identity();
    const says = `DKIM for ${domain} is ${Status}${SigningEnabled ? '' : ', signing off'}`;
    if (Status === 'SUCCESS' && SigningEnabled) return ok(says);
    // SES's own lookup says whether the records are found; the line gives them.
    const records = Tokens.map((token) => `${token}._domainkey.${domain} CNAME ${token}.dkim.amazonses.com`);
    const todo: Record<string, string> = {
      PENDING: `SES has not found its records yet: publish ${records.join('; ')}`,
      FAILED: `SES gave up looking: publish ${records.join('; ')}, then SES console → Identities → the domain → Retry`,
      TEMPORARY_FAILURE: `SES could not read them for now and tries again: check ${records.join('; ')}`,
      NOT_STARTED: 'SES has not started: deploy again',
    };
    return fail(says, todo[Status] ?? 'turn DKIM signing on for the identity');
  }),
  check('SES MAIL FROM', ['ses:GetEmailIdentity'], async ({ identity, region }) => {
    const {
      MailFromDomain: from,
      MailFromDomainStatus: status = 'not set',
      BehaviorOnMxFailure,
    } = (await identity()).MailFromAttributes ?? {};
    const says = `the MAIL FROM domain ${from} is ${status}`;
    if (status === 'SUCCESS') return ok(says);
    // It only warns: SES falls back to its own (DMARC passes on DKIM), unless set to reject.
    return (BehaviorOnMxFailure === 'REJECT_MESSAGE' ? fail : warn)(
      `${says}: until SES finds its MX record it sends with its own, so SPF does not align (DMARC passes on DKIM)`,
      `publish ${from} MX 10 feedback-smtp.${region}.amazonses.com and ${from} TXT "v=spf1 include:amazonses.com ~all"`,
    );
  }),
  check('SES configuration set', ['ses:GetConfigurationSetEventDestinations'], async ({ stack, clients }) => {
    const name = resourceOf(stack, 'AWS::SES::ConfigurationSet');
    const { EventDestinations = [] } = await clients.ses.send(
      new GetConfigurationSetEventDestinationsCommand({ ConfigurationSetName: name }),
    );
    const hearing = EventDestinations.find(
      ({ Enabled, MatchingEventTypes = [] }) =>
        Enabled && MatchingEventTypes.includes('BOUNCE') && MatchingEventTypes.includes('COMPLAINT'),
    );
    if (hearing) return ok(`${name} publishes ${hearing.MatchingEventTypes?.join(', ')} (${hearing.Name})`);
    return fail(
      `${name} publishes no bounces and complaints: addresses that bounce would be mailed again`,
      'deploy again (the stack adds the event destination)',
    );
  }),
  check('Alarm subscription', ['sns:ListSubscriptionsByTopic'], async ({ stack, clients: { sns } }) => {
    const TopicArn = outputOf(stack, 'AlarmTopicArn');
    const arns: string[] = [];
    for await (const page of paginateListSubscriptionsByTopic({ client: sns }, { TopicArn }))
      arns.push(...(page.Subscriptions ?? []).map(({ SubscriptionArn = '' }) => SubscriptionArn));
    const confirmed = arns.filter((arn) => arn.startsWith('arn:')).length;
    const pending = arns.filter((arn) => arn === 'PendingConfirmation').length;
    if (confirmed > 0) return ok(`${plural(confirmed, 'confirmed subscription')} to the alarm topic`);
    if (pending === 0)
      return fail(
        'no one hears the alarms: the topic has no subscription',
        `deploy with -c alarmEmail=<address>, or subscribe one to ${TopicArn}`,
      );
    return fail(
      `no one hears the alarms: ${plural(pending, 'subscription')} await${pending === 1 ? 's' : ''} confirmation`,
      'open the mail from AWS Notifications and choose "Confirm subscription"',
    );
  }),
  check('Alarms', ['cloudwatch:DescribeAlarms'], async ({ stack, clients: { cloudWatch } }) => {
    const names = stack.resources.get('AWS::CloudWatch::Alarm') ?? notInStack('alarm');
    const { MetricAlarms = [] } = await cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames: names }));
    // No signup rings it while nobody can join yet.
    const ringing = MetricAlarms.filter(
      ({ StateValue, AlarmName = '' }) => StateValue === 'ALARM' && !AlarmName.includes('SignupSilence'),
    ).map(({ AlarmName }) => AlarmName);
    if (ringing.length === 0) return ok(`${plural(names.length, 'alarm')}, none in ALARM but SignupSilence`);
    const runbook = 'follow its runbook (docs/operating.md#the-alarms), then run preflight again';
    return fail(`in ALARM: ${ringing.join(', ')}`, runbook);
  }),
  check(
    'Lambda concurrency',
    ['lambda:GetAccountSettings', 'cloudformation:GetTemplate'],
    async ({ template, region, clients: { lambda } }) => {
      const { AccountLimit: { ConcurrentExecutions: limit = 0 } = {} } = await lambda.send(
        new GetAccountSettingsCommand({}),
      );
      const of = await template();
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
  ),
  check('CloudFront', ['cloudfront:GetDistribution'], async ({ distribution }) => {
    const { Id, Status, DomainName, DistributionConfig } = await distribution();
    const says = `${Id} (${DomainName}) is ${Status}${DistributionConfig?.Enabled ? '' : ', disabled'}`;
    if (!DistributionConfig?.Enabled) return fail(says, 'enable it, or deploy again');
    if (Status !== 'Deployed') return fail(says, 'wait for it to be Deployed, then run this again');
    return ok(says);
  }),
  check('DNS DMARC', ['ses:GetEmailIdentity'], async ({ identity, resolver, stack }) => {
    const { domain } = await identity();
    const name = `_dmarc.${domain}`;
    // A long TXT record comes in chunks.
    const dmarc = (await records(resolver.resolveTxt(name)))
      .map((chunks) => chunks.join(''))
      .find((text) => /^v=DMARC1\s*(;|$)/i.test(text));
    if (dmarc) return ok(`${name} TXT "${dmarc}"`);
    return fail(
      `${domain} has no DMARC record: Gmail and Yahoo refuse bulk mail without one`,
      `publish ${stack.outputs.DmarcRecord ?? `${name} TXT "v=DMARC1; p=quarantine; rua=mailto:<contact address>"`}`,
    );
  }),
  check('DNS site', ['cloudfront:GetDistribution'], async ({ distribution, resolver }) => {
    const { DomainName = '', DistributionConfig } = await distribution();
    const names = DistributionConfig?.Aliases?.Items ?? [];
    if (names.length === 0) return ok(`the site is at CloudFront's own name, ${DomainName}`);
    const cloudFront = new Set(await records(resolver.resolve4(DomainName)));
    const astray: string[] = [];
    for (const name of names) {
      // A CNAME to the distribution, or (at a domain's apex) an ALIAS that answers the distribution's addresses.
      const cname = await records(resolver.resolveCname(name));
      const addresses = cname.some((target) => sameName(target, DomainName))
        ? [...cloudFront]
        : await records(resolver.resolve4(name));
      if (!addresses.some((address) => cloudFront.has(address))) astray.push(name);
    }
    if (astray.length === 0) return ok(`${names.join(', ')} point at ${DomainName}`);
    return fail(
      `${astray.join(', ')} do${astray.length === 1 ? 'es' : ''} not point at the distribution ${DomainName}`,
      'publish a CNAME to it (an ALIAS record at the domain’s apex)',
    );
  }),
  check('Pages', [], async ({ page, stack }) => {
    const wrong: string[] = [];
    for (const path of LANGUAGE_HOMES) {
      const { status, viaCloudFront } = await page(path);
      if (status !== 200 || !viaCloudFront)
        wrong.push(`${path} answers ${status}${viaCloudFront ? '' : ', not from CloudFront'}`);
    }
    if (wrong.length > 0)
      return fail(
        wrong.join('; '),
        'deploy again (the pages are uploaded to the bucket), and read the stack’s events',
      );
    return ok(
      `${LANGUAGE_HOMES.join(' and ')} answer 200 through CloudFront at ${outputOf(stack, 'SiteUrl')}`,
    );
  }),
  // An empty signup as the page posts it runs the function through CloudFront (its start-up, the origin secret,
  // SITE_ORIGINS), which refuses it before it writes anything.
  check('API', [], async ({ fetchSite }) => {
    const { status, viaCloudFront, body } = await fetchSite(WAITLIST_PATH, '{}');
    const says = `an empty signup to ${WAITLIST_PATH} answers ${`${status} ${body.slice(0, 60)}`.trim()}${viaCloudFront ? '' : ', not from CloudFront'}`;
    const error = /"error":"(\w+)"/.exec(body)?.[1];
    if (status === 400 && error === 'invalid_request' && viaCloudFront) return ok(says);
    if (status === 403 && error === 'forbidden')
      return fail(
        `${says}: the function refuses the page’s own posts`,
        'CloudFront’s origin secret or the site’s origin (SITE_ORIGINS) is not the function’s: deploy again, and read the refusal in the API function’s log',
      );
    return fail(says, 'deploy again, and read the API function’s log and the stack’s events');
  }),
  // The controller's details (GDPR art. 13): the footer's <address>, there only when MANDJE_CONTROLLER_* were
  // set for the page's build (frontend/src/components/site-footer.tsx).
  check('Controller', [], async ({ page, siteEnv }) => {
    const footer = /<address\b[^>]*>([^<]*)<\/address>/.exec((await page('/')).body)?.[1];
    const expected = readSiteConfig(siteEnv).controller.legalName;
    const todo =
      'set MANDJE_CONTROLLER_NAME, MANDJE_CONTROLLER_ADDRESS and MANDJE_CONTROLLER_KVK where the page is built (the deploy workflow’s variables), then deploy';
    const none = 'the deployed page names no controller of the waitlist’s data';
    if (footer === undefined) return fail(none, todo);
    const named = footer.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, name: string) => ENTITIES[name] ?? '');
    const other = `the deployed page names "${named}", not "${expected}" (MANDJE_CONTROLLER_NAME here)`;
    if (expected && !named.includes(expected)) return warn(other, todo);
    return ok(`the deployed page names "${named}"`);
  }),
];

/** An error's most telling name: for a failed fetch, its cause's (ENOTFOUND, ERR_TLS_CERT_ALTNAME_INVALID). */
const reasonOf = (error: unknown) =>
  errorNameOf(error instanceof TypeError && error.cause instanceof Error ? error.cause : error);

/** access_denied, or HTTP 403 for other services' names of it (AccessDenied, SNS's AuthorizationError). */
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
  const message = (error as { message?: string } | undefined)?.message ?? '';
  return fail(`${says}: ${message.split('\n')[0]}`, 'run this again');
}

export async function runPreflight(deps: PreflightDeps, out: (line: string) => void): Promise<number> {
  const stack = await findStack(deps.clients.cloudFormation).catch((error: unknown) => {
    const name = errorNameOf(error);
    const why = noSuchStack(error)
      ? `there is no stack ${STACK_NAME} in ${deps.region}: deploy it (npm run deploy), or pass the --region it is in`
      : refused(error)
        ? `these AWS credentials may not read the stack ${STACK_NAME} (${name}); docs/operating.md lists what preflight needs`
        : ['network', 'timeout'].includes(faultClassOf(error))
          ? `could not reach AWS in ${deps.region} (${reasonOf(error)}): is this machine online?`
          : undefined;
    // No credentials: the tool says so for every command.
    throw why && name !== 'CredentialsProviderError' ? new WaitlistToolError(why) : error;
  });
  const launch = launchOf(stack, deps);
  const findings = await Promise.all(
    PREFLIGHT_CHECKS.map(async (check) => {
      const { status, says, todo } = await check
        .run(launch)
        .catch((error: unknown) => unchecked(error, check));
      return { status, line: `${status.padEnd(4)}  ${check.name}: ${says}${todo ? ` → ${todo}` : ''}` };
    }),
  );
  for (const { line } of findings) out(line);
  const [failed, warned] = (['FAIL', 'warn'] as const).map(
    (status) => findings.filter((f) => f.status === status).length,
  );
  const warnings = warned ? ` (${plural(warned, 'warning')})` : '';
  out(
    failed
      ? `${plural(failed, 'item')} block${failed === 1 ? 's' : ''} the launch${warnings}: the FAIL lines above.`
      : `Nothing blocks the launch${warnings}.`,
  );
  return failed ? 1 : 0;
}

export async function preflight(region: string | undefined, out: (line: string) => void): Promise<number> {
  const clients = clientsOf(region);
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
