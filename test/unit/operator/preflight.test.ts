/**
 * `npm run waitlist -- preflight`: one line per check, ok / warn / FAIL with what to do, exit 1 on a FAIL. AWS is
 * mocked, the DNS a zone in memory, fetch the deployed site: an account ready for launch, each case breaking one thing.
 */
import { readFileSync } from 'node:fs';
import {
  CloudFormationClient,
  DescribeStacksCommand,
  GetTemplateCommand,
  ListStackResourcesCommand,
  type StackStatus,
} from '@aws-sdk/client-cloudformation';
import { CloudFrontClient, type Distribution, GetDistributionCommand } from '@aws-sdk/client-cloudfront';
import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import {
  type BehaviorOnMxFailure,
  GetAccountCommand,
  GetConfigurationSetEventDestinationsCommand,
  GetEmailIdentityCommand,
  type MailFromDomainStatus,
  SESv2Client,
  SESv2ServiceException,
} from '@aws-sdk/client-sesv2';
import { ListSubscriptionsByTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, expect, it } from 'vitest';
import { PREFLIGHT_CHECKS, type PreflightDeps, runPreflight } from '../../../operator/preflight';
import { WaitlistToolError } from '../../../operator/waitlist-store-access';

const REGION = 'eu-west-1';
const cloudFormation = mockClient(CloudFormationClient);
const ses = mockClient(SESv2Client);
const sns = mockClient(SNSClient);
const lambda = mockClient(LambdaClient);
const cloudFront = mockClient(CloudFrontClient);
const cloudWatch = mockClient(CloudWatchClient);
const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ region: REGION }));
const dynamo = mockClient(documentClient);
const mocks = [cloudFormation, ses, sns, lambda, cloudFront, cloudWatch, dynamo];

const DISTRIBUTION_DOMAIN = 'd111111abcdef8.cloudfront.net';
const TOPIC_ARN = 'arn:aws:sns:eu-west-1:111122223333:Mandje-AlarmTopic';
const WEB_ACL = 'arn:aws:wafv2:us-east-1:111122223333:global/webacl/ClientRateLimit/abc';
const ALARMS = ['Mandje-OperationsSignupSilenceAlarm-A1', 'Mandje-OperationsMailFailingAlarm-B2'];
const OUTPUTS = { SiteUrl: 'https://mandje.nl', TableName: 'Mandje-WaitlistTable', AlarmTopicArn: TOPIC_ARN };

/** A DNS zone in memory: a name not in a type's table answers ENOTFOUND, as node:dns does. */
type Zone = { CNAME: Record<string, string[]>; A: Record<string, string[]>; TXT: Record<string, string[][]> };
const lookup = async <T>(table: Record<string, T[]>, name: string): Promise<T[]> =>
  table[name] ?? Promise.reject(Object.assign(new Error(`query ENOTFOUND ${name}`), { code: 'ENOTFOUND' }));

/** The deployed site: `METHOD url` → its answer; anything else is a host that does not resolve. */
type Site = Record<string, { status: number; body?: string; headers?: Record<string, string> }>;
const fetchOf =
  (site: Site): typeof fetch =>
  async (input, init) => {
    const method = init?.method ?? 'GET';
    // A POST is the page's own, and writes nothing: a body the API refuses.
    if (method === 'POST') expect(init).toMatchObject({ headers: { 'sec-fetch-site': 'same-origin' } });
    const answer = site[`${method} ${String(input)}`];
    if (!answer)
      throw new TypeError('fetch failed', { cause: Object.assign(new Error(), { code: 'ENOTFOUND' }) });
    return new Response(answer.body ?? '', answer);
  };
/** An answer through CloudFront. */
const viaCloudFront = (status: number, body = '') => ({ status, body, headers: { 'x-amz-cf-id': 'abc==' } });
const footer = (text: string) => `<footer><address class="not-italic">${text}</address></footer>`;

let zone: Zone;
let site: Site;
let siteEnv: PreflightDeps['siteEnv'];

/** An account ready for the launch: every check passes. */
function readyAccount() {
  stackStatus('UPDATE_COMPLETE');
  const resources = [
    ['AWS::CloudFront::Distribution', 'E2EXAMPLE'],
    ['AWS::SES::EmailIdentity', 'mandje.nl'],
    ['AWS::SES::ConfigurationSet', 'MailSenderConfigurationSet'],
    ...ALARMS.map((name) => ['AWS::CloudWatch::Alarm', name]),
  ];
  cloudFormation.on(ListStackResourcesCommand).resolves({
    StackResourceSummaries: resources.map(([ResourceType, PhysicalResourceId]) => ({
      ResourceType,
      PhysicalResourceId,
      LogicalResourceId: PhysicalResourceId,
      ResourceStatus: 'UPDATE_COMPLETE',
      LastUpdatedTimestamp: new Date(),
    })),
  });
  alarms('Mandje-OperationsSignupSilenceAlarm-A1');
  edgeStack('CREATE_COMPLETE');
  template({});
  sesAccount({});
  identity({});
  ses
    .on(GetConfigurationSetEventDestinationsCommand, { ConfigurationSetName: 'MailSenderConfigurationSet' })
    .resolves({
      EventDestinations: [{ Name: 'Events', Enabled: true, MatchingEventTypes: ['BOUNCE', 'COMPLAINT'] }],
    });
  const person = (status: string, index: number) => ({
    email: `person${index}@example.nl`,
    createdAt: '2026-11-24T10:00:00Z',
    status,
  });
  dynamo.on(ScanCommand).resolves({ Items: ['confirmed', 'confirmed', 'pending'].map(person) });
  subscriptions(`${TOPIC_ARN}:1b2c`);
  concurrency(1_000);
  distribution({});
  zone = {
    CNAME: { 'www.mandje.nl': [DISTRIBUTION_DOMAIN] },
    A: { [DISTRIBUTION_DOMAIN]: ['13.32.0.1', '13.32.0.2'], 'mandje.nl': ['13.32.0.2', '13.32.0.1'] },
    TXT: { '_dmarc.mandje.nl': [['v=DMARC1; p=quarantine; ', 'rua=mailto:hallo@mandje.nl']] },
  };
  site = {
    // The page escapes what it writes: the controller is found all the same.
    'GET https://mandje.nl/': viaCloudFront(200, footer('Boodschappen &amp; Co B.V. · Straat 1, Amsterdam')),
    'GET https://mandje.nl/en/': viaCloudFront(200),
    'POST https://mandje.nl/api/waitlist': viaCloudFront(400, '{"error":"invalid_request"}'),
  };
  siteEnv = { MANDJE_CONTROLLER_NAME: 'Boodschappen & Co B.V.' };
}

/** The stack's alarms, in OK but for those `ringing`. */
const alarms = (...ringing: string[]) =>
  cloudWatch.on(DescribeAlarmsCommand).resolves({
    MetricAlarms: ALARMS.map((AlarmName) => ({
      AlarmName,
      StateValue: ringing.includes(AlarmName) ? 'ALARM' : 'OK',
    })),
  });

function edgeStack(StackStatus?: StackStatus) {
  const edge = cloudFormation.on(DescribeStacksCommand, { StackName: 'MandjeEdge' });
  const Outputs = [{ OutputKey: 'WebAclArn', OutputValue: WEB_ACL }];
  if (StackStatus)
    edge.resolves({ Stacks: [{ StackName: 'MandjeEdge', StackStatus, CreationTime: new Date(), Outputs }] });
  else edge.rejects(Object.assign(new Error('does not exist'), { name: 'ValidationException' }));
}

/** The deployed template: the API's rate, the mail consumers (two queues, one stream), a reservation. */
function template({ rate = 1_000, reserved }: { rate?: number; reserved?: number }) {
  const mapping = (Properties: object) => ({ Type: 'AWS::Lambda::EventSourceMapping', Properties });
  const Resources = {
    Stage: {
      Type: 'AWS::ApiGatewayV2::Stage',
      Properties: { DefaultRouteSettings: { ThrottlingRateLimit: rate } },
    },
    Api: { Type: 'AWS::Lambda::Function', Properties: { ReservedConcurrentExecutions: reserved } },
    Priority: mapping({ ScalingConfig: { MaximumConcurrency: 2 } }),
    Bulk: mapping({ ScalingConfig: { MaximumConcurrency: 2 } }),
    Stream: mapping({ StartingPosition: 'TRIM_HORIZON' }),
  };
  cloudFormation.on(GetTemplateCommand).resolves({ TemplateBody: JSON.stringify({ Resources }) });
}

const concurrency = (ConcurrentExecutions: number) =>
  lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions } });

const subscriptions = (...arns: string[]) =>
  sns
    .on(ListSubscriptionsByTopicCommand)
    .resolves({ Subscriptions: arns.map((SubscriptionArn) => ({ SubscriptionArn, TopicArn: TOPIC_ARN })) });

function distribution({ status = 'Deployed', enabled = true, acl = WEB_ACL }) {
  const Items = ['mandje.nl', 'www.mandje.nl'];
  cloudFront.on(GetDistributionCommand, { Id: 'E2EXAMPLE' }).resolves({
    Distribution: {
      Id: 'E2EXAMPLE',
      Status: status,
      DomainName: DISTRIBUTION_DOMAIN,
      DistributionConfig: { Enabled: enabled, WebACLId: acl, Aliases: { Quantity: 2, Items } },
    } as Distribution,
  });
}

function stackStatus(StackStatus: StackStatus, outputs: Record<string, string> = OUTPUTS) {
  const Outputs = Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue }));
  cloudFormation
    .on(DescribeStacksCommand)
    .resolves({ Stacks: [{ StackName: 'Mandje', StackStatus, CreationTime: new Date(), Outputs }] });
}

const sesAccount = (changes: object) =>
  ses.on(GetAccountCommand).resolves({
    ProductionAccessEnabled: true,
    SendingEnabled: true,
    EnforcementStatus: 'HEALTHY',
    SendQuota: { Max24HourSend: 50_000, MaxSendRate: 14, SentLast24Hours: 12 },
    ...changes,
  });

const mailFrom = (
  MailFromDomainStatus: MailFromDomainStatus,
  BehaviorOnMxFailure: BehaviorOnMxFailure = 'USE_DEFAULT_VALUE',
) => ({
  MailFromAttributes: { MailFromDomain: 'mail.mandje.nl', MailFromDomainStatus, BehaviorOnMxFailure },
});
const identity = (changes: object) =>
  ses.on(GetEmailIdentityCommand, { EmailIdentity: 'mandje.nl' }).resolves({
    VerifiedForSendingStatus: true,
    DkimAttributes: { SigningEnabled: true, Status: 'SUCCESS', Tokens: ['abc1', 'def2'] },
    ...mailFrom('SUCCESS'),
    ...changes,
  });

const awsError = (name: string, httpStatusCode: number) =>
  new SESv2ServiceException({
    name,
    $fault: 'client',
    $metadata: { httpStatusCode },
    message: `${name} (mocked)`,
  });

/** The mocked clients, the zone, the site and this machine's MANDJE_* as the test left them. */
const deps = (): PreflightDeps => ({
  region: REGION,
  clients: {
    cloudFormation: new CloudFormationClient({ region: REGION }),
    edgeCloudFormation: new CloudFormationClient({ region: 'us-east-1' }),
    ses: new SESv2Client({ region: REGION }),
    sns: new SNSClient({ region: REGION }),
    lambda: new LambdaClient({ region: REGION }),
    cloudFront: new CloudFrontClient({ region: REGION }),
    cloudWatch: new CloudWatchClient({ region: REGION }),
    dynamo: documentClient,
  },
  resolver: {
    resolveCname: (name) => lookup(zone.CNAME, name),
    resolve4: (name) => lookup(zone.A, name),
    resolveTxt: (name) => lookup(zone.TXT, name),
  },
  fetch: fetchOf(site),
  siteEnv,
});

/** Runs the preflight against the mocks: its lines, the verdict (the last) and its exit code. */
async function preflight() {
  const lines: string[] = [];
  const code = await runPreflight(deps(), (line) => lines.push(line));
  return { code, lines: lines.slice(0, -1), verdict: lines.at(-1) };
}

beforeEach(() => {
  for (const mock of mocks) mock.reset();
  readyAccount();
});

it('says ok on every line of an account ready for the launch, only reading, and exits 0', async () => {
  const { code, lines, verdict } = await preflight();

  expect(lines.filter((line) => !line.startsWith('ok  '))).toEqual([]);
  expect(lines).toHaveLength(PREFLIGHT_CHECKS.length);
  expect(verdict).toBe('Nothing blocks the launch.');
  expect(code).toBe(0);
  const sent = mocks.flatMap((mock) => mock.calls().map((call) => call.args[0]?.constructor.name));
  expect(sent.length).toBeGreaterThan(10);
  expect(sent.filter((name) => !/^(Get|List|Describe|Scan)\w*Command$/.test(String(name)))).toEqual([]);
});

const api = (status: number, body: string) => () =>
  Object.assign(site, { 'POST https://mandje.nl/api/waitlist': viaCloudFront(status, body) });

it.each<[string, () => unknown, RegExp]>([
  ['a deploy under way', () => stackStatus('UPDATE_IN_PROGRESS'), /^FAIL {2}Stack: .* → a deploy is under/],
  ['a failed stack', () => stackStatus('UPDATE_ROLLBACK_FAILED'), /^FAIL {2}Stack: .* → read the stack’s/],
  ['rolled back: warns', () => stackStatus('UPDATE_ROLLBACK_COMPLETE'), /^warn {2}Stack: .*rolled back/],
  ['no edge stack, its web ACL named', () => edgeStack(), /^FAIL {2}Edge: there is no MandjeEdge/],
  ['no web ACL: warns', () => [edgeStack(), distribution({ acl: '' })], /^warn {2}Edge: .*no web ACL/],
  ['an edge stack that failed', () => edgeStack('UPDATE_ROLLBACK_FAILED'), /^FAIL {2}Edge: .*_FAILED → read/],
  [
    'a distribution guarded by another web ACL',
    () => distribution({ acl: 'arn:aws:wafv2:us-east-1:111122223333:global/webacl/Old/def' }),
    /^FAIL {2}Edge: .*Old\/def is not the one MandjeEdge in us-east-1 holds → deploy again/,
  ],
  [
    'the SES sandbox',
    () => sesAccount({ ProductionAccessEnabled: false }),
    /^FAIL {2}SES production access: .*sandbox in eu-west-1.* → request production access/,
  ],
  [
    'a pending request for production access',
    () => sesAccount({ ProductionAccessEnabled: false, Details: { ReviewDetails: { Status: 'PENDING' } } }),
    /^FAIL {2}SES production access: .* is pending → wait for it/,
  ],
  ['probation: warns', () => sesAccount({ EnforcementStatus: 'PROBATION' }), /^warn {2}SES sending/],
  ['sending paused', () => sesAccount({ SendingEnabled: false }), /^FAIL {2}SES sending: sending is paused/],
  [
    'no quota left after the confirmations’ reserve',
    () => sesAccount({ SendQuota: { Max24HourSend: 0, MaxSendRate: 1, SentLast24Hours: 0 } }),
    /^FAIL {2}SES quota: .*nothing is left for the announcement .* → ask for a higher quota/,
  ],
  [
    'an identity not verified',
    () => identity({ VerifiedForSendingStatus: false, VerificationStatus: 'PENDING' }),
    /^FAIL {2}SES identity: mandje.nl is not verified \(PENDING\) → publish its DKIM records/,
  ],
  [
    'DKIM records not found yet',
    () => identity({ DkimAttributes: { SigningEnabled: true, Status: 'PENDING', Tokens: ['abc1', 'def2'] } }),
    /^FAIL {2}SES DKIM: .* → .*: publish abc1._domainkey.mandje.nl CNAME abc1.dkim.amazonses.com; def2\._d.*com$/,
  ],
  [
    'a MAIL FROM domain not found, which only warns (SES sends with its own)',
    () => identity(mailFrom('PENDING')),
    /^warn {2}SES MAIL FROM: .* → publish mail.mandje.nl MX 10 feedback-smtp.eu-west-1.amazonses.com and mail.mandje.nl TXT "v=spf1 include:amazonses.com ~all"$/,
  ],
  [
    'a MAIL FROM domain not found, with mail rejected meanwhile',
    () => identity(mailFrom('FAILED', 'REJECT_MESSAGE')),
    /^FAIL {2}SES MAIL FROM: the MAIL FROM domain mail.mandje.nl is FAILED/,
  ],
  [
    'a configuration set that publishes no bounces',
    () =>
      ses.on(GetConfigurationSetEventDestinationsCommand).resolves({
        EventDestinations: [{ Name: 'Old', Enabled: false, MatchingEventTypes: ['BOUNCE', 'COMPLAINT'] }],
      }),
    /^FAIL {2}SES configuration set: .* publishes no bounces and complaints/,
  ],
  [
    'a subscription not confirmed',
    () => subscriptions('PendingConfirmation'),
    /^FAIL {2}Alarm subscription: .*1 subscription awaits confirmation → open the mail/,
  ],
  [
    'no subscription',
    () => subscriptions(),
    /^FAIL {2}Alarm subscription: .*no subscription → deploy with -c alarmEmail=<address>, or subscribe one to arn/,
  ],
  [
    'an alarm ringing before the launch (other than no signups)',
    () => alarms(...ALARMS),
    /^FAIL {2}Alarms: in ALARM: Mandje-OperationsMailFailingAlarm-B2 → follow its runbook/,
  ],
  [
    'a new account’s 10 concurrent executions',
    () => concurrency(10),
    /^FAIL {2}Lambda concurrency: the account runs 10 at once; at its peak the stack needs 108 \(the API 100 at 1,000 requests a second, the mail functions 8\) → ask for 1,000: .* --quota-code L-B99A9384 --desired-value 1000 --region eu-west-1$/,
  ],
  [
    'a reservation that leaves fewer than 100 unreserved',
    () => concurrency(150) && template({ rate: 500, reserved: 60 }),
    /^FAIL {2}Lambda concurrency: .*needs 58 .*, and reserves 60 → Lambda keeps 100 unreserved/,
  ],
  [
    'a distribution still deploying',
    () => distribution({ status: 'InProgress' }),
    /^FAIL {2}CloudFront: E2EXAMPLE \(d111111abcdef8.cloudfront.net\) is InProgress → wait for it/,
  ],
  [
    'a disabled distribution',
    () => distribution({ enabled: false }),
    /^FAIL {2}CloudFront: .*disabled → enable/,
  ],
  [
    'no DMARC record',
    () => delete zone.TXT['_dmarc.mandje.nl'],
    /^FAIL {2}DNS DMARC: .*no DMARC record.* → publish _dmarc.mandje.nl TXT "v=DMARC1; p=quarantine;/,
  ],
  [
    'a site name that points elsewhere',
    () => Object.assign(zone.CNAME, { 'www.mandje.nl': ['old-host.example.com'] }),
    /^FAIL {2}DNS site: www.mandje.nl does not point at the distribution d111111abcdef8.cloudfront.net → publish/,
  ],
  [
    'a page that is not there, and not from CloudFront',
    () => Object.assign(site, { 'GET https://mandje.nl/en/': { status: 404 } }),
    /^FAIL {2}Pages: \/en\/ answers 404, not from CloudFront → deploy again/,
  ],
  [
    'an origin secret that is not the function’s (every post refused)',
    api(403, '{"error":"forbidden"}'),
    /^FAIL {2}API: .*answers 403 .*: the function refuses the page’s own posts → CloudFront’s origin secret/,
  ],
  [
    'an API path the bucket answers',
    api(403, '<Error>'),
    /^FAIL {2}API: .*answers 403 <Error> → deploy again/,
  ],
  ['another controller: warns', () => (siteEnv = { MANDJE_CONTROLLER_NAME: 'Other' }), /^warn {2}Controller/],
  [
    'a page built without the controller',
    () => Object.assign(site, { 'GET https://mandje.nl/': viaCloudFront(200, '<footer></footer>') }),
    /^FAIL {2}Controller: .*names no controller .* → set MANDJE_CONTROLLER_NAME, MANDJE_CONTROLLER_ADDRESS/,
  ],
  // What a check could not read: a FAIL too, saying why.
  [
    'credentials that may not read (a 403)',
    () => sns.on(ListSubscriptionsByTopicCommand).rejects(awsError('AuthorizationError', 403)),
    /^FAIL {2}Alarm subscription: could not check \(AuthorizationError\) → these credentials need sns:ListSub/,
  ],
  [
    'credentials that may not read (access denied)',
    () => lambda.on(GetAccountSettingsCommand).rejects(awsError('AccessDeniedException', 400)),
    /\(AccessDeniedException\) → these credentials need lambda:GetAccountSettings and cloudformation:GetTemplate$/,
  ],
  [
    'an identity SES does not have',
    () => ses.on(GetEmailIdentityCommand).rejects(awsError('NotFoundException', 404)),
    /^FAIL {2}SES identity: could not check \(NotFoundException\) → deploy again/,
  ],
  [
    'a site name that does not resolve',
    () => (site = {}),
    /^FAIL {2}Pages: could not check \(ENOTFOUND\) → check the network/,
  ],
  [
    'a stack from before an output was added',
    () => stackStatus('UPDATE_COMPLETE', { SiteUrl: OUTPUTS.SiteUrl, TableName: OUTPUTS.TableName }),
    /^FAIL {2}Alarm subscription: the stack has no AlarmTopicArn output → deploy this version of the stack/,
  ],
])('%s', async (_case, arrange, expected) => {
  arrange();

  const { code, lines, verdict } = await preflight();

  expect(lines).toContainEqual(expect.stringMatching(expected));
  // Only a FAIL blocks the launch.
  const failed = expected.source.startsWith('^warn') ? 0 : 1;
  expect(verdict).toMatch(failed ? / blocks? the launch.*: the FAIL lines above\.$/ : /^Nothing blocks the/);
  expect(code).toBe(failed);
});

it.each<[string, object, string]>([
  [
    'no stack in that region',
    { name: 'ValidationException' },
    'there is no stack Mandje in eu-west-1: deploy it (npm run deploy), or pass the --region it is in',
  ],
  [
    'no network',
    { code: 'ENOTFOUND' },
    'could not reach AWS in eu-west-1 (ENOTFOUND): is this machine online?',
  ],
  [
    'credentials that may not read the stack',
    { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } },
    'these AWS credentials may not read the stack Mandje (AccessDenied); docs/operating.md lists what preflight needs',
  ],
])('says in one line, with no checks, when the stack cannot be read: %s', async (_case, error, message) => {
  cloudFormation.on(DescribeStacksCommand).rejects(Object.assign(new Error('mocked'), error));
  const printed: string[] = [];

  const outcome = await runPreflight(deps(), (line) => printed.push(line)).catch((thrown: Error) => thrown);

  expect(outcome).toBeInstanceOf(WaitlistToolError);
  expect((outcome as Error).message).toBe(message);
  expect(printed).toEqual([]);
});

it('leaves missing credentials to the tool, which says so for every command', async () => {
  const missing = Object.assign(new Error('Could not load credentials'), {
    name: 'CredentialsProviderError',
  });
  cloudFormation.on(DescribeStacksCommand).rejects(missing);

  await expect(runPreflight(deps(), () => {})).rejects.toBe(missing);
});

it('reads with only the permissions docs/operating.md’s policy lists', () => {
  const docs = readFileSync(new URL('../../../docs/operating.md', import.meta.url), 'utf8');
  const policy = docs.slice(
    docs.indexOf('## Before the launch: preflight'),
    docs.indexOf('## Where to look'),
  );
  const needs = [...new Set(PREFLIGHT_CHECKS.flatMap((check) => check.needs))];

  expect(needs.length).toBeGreaterThan(5);
  expect(needs.filter((action) => !policy.includes(`"${action}"`))).toEqual([]);
});
