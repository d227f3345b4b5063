/**
 * `npm run waitlist -- preflight`: one line per check that can block a launch, ok / warn / FAIL with what to
 * do, exit 1 on a FAIL. AWS is mocked, fetch the deployed site: an account ready for launch, each case
 * breaking one thing.
 */
import { readFileSync } from 'node:fs';
import {
  CloudFormationClient,
  DescribeStacksCommand,
  GetTemplateCommand,
  ListStackResourcesCommand,
  type StackStatus,
} from '@aws-sdk/client-cloudformation';
import { CloudFrontClient, GetDistributionCommand } from '@aws-sdk/client-cloudfront';
import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, expect, it } from 'vitest';
import { PREFLIGHT_CHECKS, type PreflightDeps, runPreflight } from '../../../operator/preflight';
import { WaitlistToolError } from '../../../operator/waitlist-store-access';

const REGION = 'eu-west-1';
const cloudFormation = mockClient(CloudFormationClient);
const ses = mockClient(SESv2Client);
const lambda = mockClient(LambdaClient);
const cloudFront = mockClient(CloudFrontClient);
const cloudWatch = mockClient(CloudWatchClient);
const mocks = [cloudFormation, ses, lambda, cloudFront, cloudWatch];

const WEB_ACL = 'arn:aws:wafv2:us-east-1:111122223333:global/webacl/ClientRateLimit/abc';
const ALARMS = ['Mandje-OperationsSignupSilenceAlarm-A1', 'Mandje-OperationsMailFailingAlarm-B2'];
const API = 'POST https://mandje.nl/api/waitlist';

/** The deployed site: `METHOD url` → its answer; anything else is a host that does not resolve. */
let site: Record<string, { status: number; body?: string; headers?: Record<string, string> }>;
const viaCloudFront = (status: number, body: string) => ({ status, body, headers: { 'x-amz-cf-id': 'a==' } });

function stack(StackStatus: StackStatus, outputs: Record<string, string>, StackName = 'Mandje') {
  const Outputs = Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue }));
  const answer = cloudFormation.on(DescribeStacksCommand, { StackName });
  answer.resolves({ Stacks: [{ StackName, StackStatus, CreationTime: new Date(), Outputs }] });
}
const noEdgeStack = () =>
  cloudFormation
    .on(DescribeStacksCommand, { StackName: 'MandjeEdge' })
    .rejects(Object.assign(new Error('does not exist'), { name: 'ValidationException' }));

const alarms = (...ringing: string[]) =>
  cloudWatch.on(DescribeAlarmsCommand).resolves({
    MetricAlarms: ALARMS.map((AlarmName) => ({
      AlarmName,
      StateValue: ringing.includes(AlarmName) ? 'ALARM' : 'OK',
    })),
  });

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
const webAcl = (WebACLId: string) =>
  cloudFront.on(GetDistributionCommand, { Id: 'E2EXAMPLE' }).resolves({
    Distribution: { DistributionConfig: { WebACLId } } as never,
  });
const sesAccount = (changes: object) =>
  ses.on(GetAccountCommand).resolves({ ProductionAccessEnabled: true, ...changes });

beforeEach(() => {
  for (const mock of mocks) mock.reset();
  stack('UPDATE_COMPLETE', { SiteUrl: 'https://mandje.nl' });
  stack('CREATE_COMPLETE', { WebAclArn: WEB_ACL }, 'MandjeEdge');
  const resources = [
    ['AWS::CloudFront::Distribution', 'E2EXAMPLE'],
    ['AWS::SES::EmailIdentity', 'mandje.nl'],
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
  template({});
  sesAccount({});
  ses
    .on(GetEmailIdentityCommand, { EmailIdentity: 'mandje.nl' })
    .resolves({ VerifiedForSendingStatus: true });
  concurrency(1_000);
  webAcl(WEB_ACL);
  site = { [API]: viaCloudFront(400, '{"error":"invalid_request"}') };
});

const deps = (): PreflightDeps => ({
  region: REGION,
  clients: {
    cloudFormation: new CloudFormationClient({ region: REGION }),
    edgeCloudFormation: new CloudFormationClient({ region: 'us-east-1' }),
    ses: new SESv2Client({ region: REGION }),
    lambda: new LambdaClient({ region: REGION }),
    cloudFront: new CloudFrontClient({ region: REGION }),
    cloudWatch: new CloudWatchClient({ region: REGION }),
  },
  fetch: async (input, init) => {
    // The page's own post, which writes nothing: a body the API refuses.
    expect(init).toMatchObject({ body: '{}', headers: { 'sec-fetch-site': 'same-origin' } });
    const answer = site[`${init?.method} ${String(input)}`];
    if (!answer)
      throw new TypeError('fetch failed', { cause: Object.assign(new Error(), { code: 'ENOTFOUND' }) });
    return new Response(answer.body, answer);
  },
});

async function preflight() {
  const lines: string[] = [];
  const code = await runPreflight(deps(), (line) => lines.push(line));
  return { code, lines: lines.slice(0, -1), verdict: lines.at(-1) };
}

it('says ok on every line of an account ready for the launch, only reading, and exits 0', async () => {
  const { code, lines, verdict } = await preflight();

  expect(lines.filter((line) => !line.startsWith('ok  '))).toEqual([]);
  expect(lines.map((line) => line.split(':')[0])).toEqual(
    PREFLIGHT_CHECKS.map(({ name }) => `ok    ${name}`),
  );
  expect(verdict).toBe('Nothing blocks the launch.');
  expect(code).toBe(0);
  const sent = mocks.flatMap((mock) => mock.calls().map((call) => call.args[0]?.constructor.name));
  expect(sent.filter((name) => !/^(Get|List|Describe)\w*Command$/.test(String(name)))).toEqual([]);
});

it.each<[string, () => unknown, RegExp]>([
  ['no web ACL: warns', () => [noEdgeStack(), webAcl('')], /^warn {2}Edge: .*no web ACL.* → deploy without/],
  ['no edge stack, its web ACL named', noEdgeStack, /^FAIL {2}Edge: there is no MandjeEdge in us-east-1/],
  [
    'a failed edge stack',
    () => stack('UPDATE_ROLLBACK_FAILED', {}, 'MandjeEdge'),
    /^FAIL {2}Edge: .*_FAILED → read/,
  ],
  [
    'a distribution guarded by another web ACL',
    () => webAcl('arn:aws:wafv2:us-east-1:111122223333:global/webacl/Old/def'),
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
  [
    'a sender identity not verified',
    () => ses.on(GetEmailIdentityCommand).resolves({ VerificationStatus: 'PENDING' }),
    /^FAIL {2}SES identity: mandje.nl is not verified \(PENDING\) → publish its DKIM records/,
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
    'an origin secret or SITE_ORIGINS that is not the function’s (every post refused)',
    () => (site[API] = viaCloudFront(403, '{"error":"forbidden"}')),
    /^FAIL {2}API: .*answers 403 .*: the function refuses the page’s own posts → CloudFront’s origin secret/,
  ],
  [
    'an API the bucket answers',
    () => (site[API] = { status: 403, body: '<Error>' }),
    /^FAIL {2}API: .*403 <Error>, not from CloudFront → deploy again/,
  ],
  // What a check could not read: a FAIL too, saying why.
  [
    'credentials that may not read',
    () =>
      lambda
        .on(GetAccountSettingsCommand)
        .rejects(Object.assign(new Error('no'), { name: 'AccessDeniedException' })),
    /\(AccessDeniedException\) → these credentials need lambda:GetAccountSettings and cloudformation:GetTemplate$/,
  ],
  [
    'a site name that does not resolve',
    () => (site = {}),
    /^FAIL {2}API: could not check \(ENOTFOUND\) → check the network/,
  ],
  [
    'a stack from before an output was added',
    () => stack('UPDATE_COMPLETE', {}),
    /^FAIL {2}API: the stack has no SiteUrl output → deploy this version of the stack/,
  ],
])('%s', async (_case, arrange, expected) => {
  arrange();

  const { code, lines, verdict } = await preflight();

  expect(lines).toContainEqual(expect.stringMatching(expected));
  // Only a FAIL blocks the launch.
  const failed = expected.source.startsWith('^warn') ? 0 : 1;
  expect(verdict).toBe(
    failed ? `1 of ${lines.length} checks block the launch.` : 'Nothing blocks the launch.',
  );
  expect(code).toBe(failed);
});

it('says in one line, with no checks, that there is no stack in that region', async () => {
  const none = Object.assign(new Error('mocked'), { name: 'ValidationException' });
  cloudFormation.on(DescribeStacksCommand, { StackName: 'Mandje' }).rejects(none);
  const printed: string[] = [];

  await expect(runPreflight(deps(), (line) => printed.push(line))).rejects.toEqual(
    new WaitlistToolError(
      'there is no stack Mandje in eu-west-1: deploy it (npm run deploy), or pass the --region it is in',
    ),
  );
  expect(printed).toEqual([]);
});

it('leaves any other failure to read the stack (no credentials, no network) to the tool, which explains it', async () => {
  const missing = Object.assign(new Error('Could not load credentials'), {
    name: 'CredentialsProviderError',
  });
  cloudFormation.on(DescribeStacksCommand, { StackName: 'Mandje' }).rejects(missing);

  await expect(runPreflight(deps(), () => {})).rejects.toBe(missing);
});

it('reads with only the permissions docs/operating.md’s policy lists', () => {
  const docs = readFileSync(new URL('../../../docs/operating.md', import.meta.url), 'utf8');
  const policy = docs.slice(
    docs.indexOf('## Before the launch: preflight'),
    docs.indexOf('## Where to look'),
  );
  const needs = [...new Set(PREFLIGHT_CHECKS.flatMap((check) => check.needs))];

  expect(needs.filter((action) => !policy.includes(`"${action}"`))).toEqual([]);
});
