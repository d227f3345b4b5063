/** `waitlist preflight` against mocked AWS and API: an account ready for launch, each case breaking one thing. */
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
import { expect, it } from 'vitest';
import { PREFLIGHT_CHECKS, runPreflight } from '../../../operator/preflight';
import { WaitlistToolError } from '../../../operator/waitlist-store-access';

const clients = {
  cloudFormation: new CloudFormationClient({ region: 'eu-west-1' }),
  edgeCloudFormation: new CloudFormationClient({ region: 'us-east-1' }),
  ses: new SESv2Client({}),
  lambda: new LambdaClient({}),
  cloudFront: new CloudFrontClient({}),
  cloudWatch: new CloudWatchClient({}),
};
const cloudFormation = mockClient(clients.cloudFormation);
const edge = mockClient(clients.edgeCloudFormation);
const ses = mockClient(clients.ses);
const lambda = mockClient(clients.lambda);
const cloudFront = mockClient(clients.cloudFront);
const cloudWatch = mockClient(clients.cloudWatch);
const mocks = [cloudFormation, edge, ses, lambda, cloudFront, cloudWatch];
const WEB_ACL = 'arn:aws:wafv2:us-east-1:1:global/webacl/ClientRateLimit/abc';
const ALARMS = ['Mandje-SignupSilenceAlarm-A1', 'Mandje-MailFailingAlarm-B2'];
const stack = (StackName: string, StackStatus: StackStatus, outputs: Record<string, string>) => {
  const Outputs = Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue }));
  return { Stacks: [{ StackName, StackStatus, CreationTime: new Date(), Outputs }] };
};

/** The world preflight reads: an account ready for the launch, until a case changes it. */
const ready = () => ({
  outputs: { SiteUrl: 'https://mandje.nl' } as Record<string, string>,
  edge: 'CREATE_COMPLETE' as StackStatus | undefined,
  acl: WEB_ACL,
  production: { ProductionAccessEnabled: true } as object,
  verified: { VerifiedForSendingStatus: true } as object,
  ringing: ['Mandje-SignupSilenceAlarm-A1'],
  limit: 1_000,
  rate: 1_000,
  reserved: undefined as number | undefined,
  api: { status: 400, body: '{"error":"invalid_request"}', headers: { 'x-amz-cf-id': 'a==' } } as
    | { status: number; body: string; headers?: Record<string, string> }
    | undefined,
  rewire: undefined as (() => unknown) | undefined,
});

/** Runs the preflight against the world so changed: its lines, the verdict (the last) and its exit code. */
async function preflight(change: Partial<ReturnType<typeof ready>> = {}) {
  const world = { ...ready(), ...change };
  for (const mock of mocks) mock.reset();
  cloudFormation.on(DescribeStacksCommand).resolves(stack('Mandje', 'UPDATE_COMPLETE', world.outputs));
  const resources = [
    ['AWS::CloudFront::Distribution', 'E2EXAMPLE'],
    ['AWS::SES::EmailIdentity', 'mandje.nl'],
    ...ALARMS.map((name) => ['AWS::CloudWatch::Alarm', name]),
  ];
  cloudFormation.on(ListStackResourcesCommand).resolves({
    StackResourceSummaries: resources.map(
      ([ResourceType, PhysicalResourceId]) => ({ ResourceType, PhysicalResourceId }) as never,
    ),
  });
  // The API's rate, the mail consumers (two queues, one stream), a reservation.
  const resource = (Type: string, Properties: object) => ({ Type, Properties });
  const queue = resource('AWS::Lambda::EventSourceMapping', { ScalingConfig: { MaximumConcurrency: 2 } });
  const Resources = [
    resource('AWS::ApiGatewayV2::Stage', { DefaultRouteSettings: { ThrottlingRateLimit: world.rate } }),
    resource('AWS::Lambda::Function', { ReservedConcurrentExecutions: world.reserved }),
    queue,
    queue,
    resource('AWS::Lambda::EventSourceMapping', { StartingPosition: 'TRIM_HORIZON' }),
  ];
  cloudFormation.on(GetTemplateCommand).resolves({ TemplateBody: JSON.stringify({ Resources }) });
  const edgeStack = edge.on(DescribeStacksCommand, { StackName: 'MandjeEdge' });
  if (world.edge) edgeStack.resolves(stack('MandjeEdge', world.edge, { WebAclArn: WEB_ACL }));
  else edgeStack.rejects(Object.assign(new Error('does not exist'), { name: 'ValidationException' }));
  cloudFront
    .on(GetDistributionCommand, { Id: 'E2EXAMPLE' })
    .resolves({ Distribution: { DistributionConfig: { WebACLId: world.acl } } as never });
  ses.on(GetAccountCommand).resolves(world.production);
  ses.on(GetEmailIdentityCommand, { EmailIdentity: 'mandje.nl' }).resolves(world.verified);
  cloudWatch.on(DescribeAlarmsCommand).resolves({
    MetricAlarms: ALARMS.map((AlarmName) => ({
      AlarmName,
      StateValue: world.ringing.includes(AlarmName) ? 'ALARM' : 'OK',
    })),
  });
  lambda.on(GetAccountSettingsCommand).resolves({ AccountLimit: { ConcurrentExecutions: world.limit } });
  world.rewire?.();
  const api: typeof fetch = async (input, init) => {
    // The page's own post, which writes nothing: a body the API refuses.
    expect([String(input), init]).toMatchObject([
      'https://mandje.nl/api/waitlist',
      { method: 'POST', body: '{}', headers: { 'sec-fetch-site': 'same-origin' } },
    ]);
    if (!world.api)
      throw new TypeError('fetch failed', { cause: Object.assign(new Error(), { code: 'ENOTFOUND' }) });
    return new Response(world.api.body, world.api);
  };
  const lines: string[] = [];
  const code = await runPreflight({ region: 'eu-west-1', clients, fetch: api }, (line) => lines.push(line));
  return { code, lines: lines.slice(0, -1), verdict: lines.at(-1) };
}

it('says ok on every line of an account ready for the launch, only reading, and exits 0', async () => {
  const { code, lines, verdict } = await preflight();

  expect(lines.map((line) => line.split(':')[0])).toEqual(
    PREFLIGHT_CHECKS.map(({ name }) => `ok    ${name}`),
  );
  expect(verdict).toBe('Nothing blocks the launch.');
  expect(code).toBe(0);
  const sent = mocks.flatMap((mock) => mock.calls().map((call) => String(call.args[0]?.constructor.name)));
  expect(sent.filter((name) => !/^(Get|List|Describe)/.test(name))).toEqual([]);
});

const denied = () =>
  ses.on(GetAccountCommand).rejects(Object.assign(new Error(), { name: 'AccessDeniedException' }));
const pending = { Details: { ReviewDetails: { Status: 'PENDING' } } };
it.each<[string, Partial<ReturnType<typeof ready>>, RegExp]>([
  ['no web ACL: warns', { acl: '', edge: undefined }, /^warn {2}Edge: .*no web ACL.* → deploy without/],
  ['no edge stack, its web ACL named', { edge: undefined }, /^FAIL {2}Edge: there is no MandjeEdge/],
  ['a failed edge stack', { edge: 'UPDATE_ROLLBACK_FAILED' }, /^FAIL {2}Edge: .*_FAILED → read its events/],
  ['another web ACL', { acl: 'arn:other' }, /^FAIL {2}Edge: .*arn:other is not the one MandjeEdge .* holds/],
  ['the SES sandbox', { production: {} }, /^FAIL {2}SES production access: .*sandbox.* → request/],
  ['a pending request', { production: pending }, /^FAIL {2}SES production access: .* is pending → wait/],
  ['an identity not verified', { verified: {} }, /^FAIL {2}SES identity: mandje.nl is not verified/],
  ['an alarm ringing', { ringing: ALARMS }, /^FAIL {2}Alarms: in ALARM: Mandje-MailFailingAlarm-B2 → /],
  [
    'a new account’s 10 concurrent executions',
    { limit: 10 },
    /^FAIL {2}Lambda concurrency: the account runs 10 at once; at its peak the stack needs 108 \(the API 100 at 1,000 requests a second, the mail functions 8\) → ask for 1,000: .* --quota-code L-B99A9384 --desired-value 1000 --region eu-west-1$/,
  ],
  [
    'a reservation that leaves fewer than 100 unreserved',
    { limit: 150, rate: 500, reserved: 60 },
    /^FAIL {2}Lambda concurrency: .*needs 58 .*, and reserves 60 → Lambda keeps 100 unreserved/,
  ],
  [
    'an origin secret or SITE_ORIGINS that is not the function’s (every post refused)',
    { api: { status: 403, body: '{"error":"forbidden"}' } },
    /^FAIL {2}API: .*answers 403 .*: the function refuses the page’s own posts → CloudFront’s origin secret/,
  ],
  ['an API the bucket answers', { api: { status: 403, body: '<E>' } }, /API: .*403 <E>, not from CloudFront/],
  ['a site that does not resolve', { api: undefined }, /^FAIL {2}API: could not check \(ENOTFOUND\) → check/],
  ['a stack before SiteUrl', { outputs: {} }, /^FAIL {2}API: the stack has no SiteUrl output → deploy/],
  ['denied credentials', { rewire: denied }, /\(AccessDeniedException\) → these credentials need ses:GetA/],
])('%s', async (_case, change, expected) => {
  const { code, lines, verdict } = await preflight(change);

  expect(lines).toContainEqual(expect.stringMatching(expected));
  // Only a FAIL blocks the launch.
  const failed = expected.source.startsWith('^warn') ? 0 : 1;
  expect(verdict).toBe(
    failed ? `1 of ${lines.length} checks block the launch.` : 'Nothing blocks the launch.',
  );
  expect(code).toBe(failed);
});

it('says in one line, with no checks, that there is no stack in that region; anything else is the tool’s to explain', async () => {
  const none = Object.assign(new Error('mocked'), { name: 'ValidationException' });
  const missing = Object.assign(new Error('no credentials'), { name: 'CredentialsProviderError' });
  const deps = { region: 'eu-west-1', clients, fetch };
  const printed: string[] = [];

  cloudFormation.reset().on(DescribeStacksCommand).rejects(none);
  await expect(runPreflight(deps, (line) => printed.push(line))).rejects.toEqual(
    new WaitlistToolError(
      'there is no stack Mandje in eu-west-1: deploy it (npm run deploy), or pass the --region it is in',
    ),
  );
  cloudFormation.reset().on(DescribeStacksCommand).rejects(missing);
  await expect(runPreflight(deps, (line) => printed.push(line))).rejects.toBe(missing);
  expect(printed).toEqual([]);
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
