import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, expect, it } from 'vitest';
import { CLIENT_POSTS_PER_MINUTE, countsTowardClientLimit } from '#contract/abuse-limits';
import { isApiRoute } from '#contract/api-routes';
import { CONFIRM_PATH } from '#contract/confirmation';
import { LEAVE_PATH, LEAVE_REQUEST_PATH } from '#contract/leave';
import { TOO_MANY_REQUESTS_HTML, TOO_MANY_REQUESTS_RETRY_AFTER } from '#contract/too-many-requests';
import { VISIT_PATH } from '#contract/visit-counting';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { deploySettings } from '../../infra/deploy-settings';
import type { MandjeEdgeStack } from '../../infra/mandje-app';
import type { MandjeStack } from '../../infra/mandje-stack';
import { MAIL_FROM, resourcesOf, synthStacks } from './synth';

let mandje: MandjeStack;
let edge: MandjeEdgeStack;
let webAcl: Record<string, unknown>;
type Rule = { Statement: { RateBasedStatement: Record<string, unknown> } } & Record<string, unknown>;
const rules = () => webAcl.Rules as Rule[];

beforeAll(() => {
  ({ mandje, edge } = synthStacks() as { mandje: MandjeStack; edge: MandjeEdgeStack });
  webAcl = resourcesOf(Template.fromStack(edge), 'AWS::WAFv2::WebACL')[0]?.Properties ?? {};
});

it('puts the one rule in a web ACL for CloudFront in us-east-1, letting everything else through', () => {
  expect(Stack.of(edge.webAcl).region).toBe('us-east-1');
  expect(webAcl).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
  expect(rules().map((rule) => rule.Name)).toEqual(['PostsPerClient']);
  expect(rules()[0]?.Statement.RateBasedStatement).toMatchObject({
    AggregateKeyType: 'IP',
    Limit: CLIENT_POSTS_PER_MINUTE,
    EvaluationWindowSec: 60,
  });
  // Metrics, but no sampled requests, which would keep clients' IP addresses.
  for (const config of [webAcl.VisibilityConfig, rules()[0]?.VisibilityConfig])
    expect(config).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: false });
});

/** A WAF statement as the template writes it: byte matches on the method or path, and, or, not. */
type WafStatement = {
  ByteMatchStatement?: {
    FieldToMatch: { Method?: object; UriPath?: object };
    PositionalConstraint: 'EXACTLY' | 'STARTS_WITH';
    SearchString: string;
    TextTransformations: { Type: 'NONE' | 'URL_DECODE' | 'NORMALIZE_PATH' }[];
  };
  AndStatement?: { Statements: WafStatement[] };
  OrStatement?: { Statements: WafStatement[] };
  NotStatement?: { Statement: WafStatement };
};

/** AWS WAF's NORMALIZE_PATH: doubled slashes as one, `.` segments dropped, `..` segments resolved. */
function normalizePath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.replace(/\/{2,}/g, '/').split('/'))
    if (segment === '..' && segments.length > 1) segments.pop();
    else if (segment !== '.') segments.push(segment);
  return segments.join('/');
}

/** Whether a statement matches a request, as AWS WAF evaluates the parts this web ACL uses. */
function wafMatches(statement: WafStatement, request: { method: string; path: string }): boolean {
  const { ByteMatchStatement: byteMatch, AndStatement, OrStatement, NotStatement } = statement;
  if (AndStatement) return AndStatement.Statements.every((part) => wafMatches(part, request));
  if (OrStatement) return OrStatement.Statements.some((part) => wafMatches(part, request));
  if (NotStatement) return !wafMatches(NotStatement.Statement, request);
  if (!byteMatch) throw new Error(`a statement this test cannot evaluate: ${JSON.stringify(statement)}`);
  let value = byteMatch.FieldToMatch.Method ? request.method : request.path;
  for (const { Type } of byteMatch.TextTransformations)
    if (Type === 'URL_DECODE') value = decodeURIComponent(value);
    else if (Type === 'NORMALIZE_PATH') value = normalizePath(value);
  return byteMatch.PositionalConstraint === 'EXACTLY'
    ? value === byteMatch.SearchString
    : value.startsWith(byteMatch.SearchString);
}

const scopeDown = () => rules()[0]?.Statement.RateBasedStatement.ScopeDownStatement as WafStatement;

it.each([
  ['POST', WAITLIST_PATH, true],
  ['POST', LEAVE_REQUEST_PATH, true],
  ['POST', CONFIRM_PATH, true],
  ['POST', LEAVE_PATH, false],
  ['POST', VISIT_PATH, false],
  ['GET', WAITLIST_PATH, false],
  ['GET', CONFIRM_PATH, false],
  ['GET', LEAVE_PATH, false],
] as const)(
  'counts %s %s: %s (one-click posts to leave and visit beacons are not, asking for a leave link by mail is), as the runner does',
  (method, route, counted) => {
    expect(wafMatches(scopeDown(), { method, path: route })).toBe(counted);
    expect(countsTowardClientLimit(method, route)).toBe(counted);
  },
);

it.each([
  ['/api/leave/../waitlist', true],
  ['/api/leave/%2e%2e/waitlist', true],
  ['/api/leave/..%5Cwaitlist', true],
  ['/api/visit/../waitlist', true],
  ['/x/../api/waitlist', true],
  [`${LEAVE_PATH}/one-click`, true],
  [`${VISIT_PATH}or`, true],
  // Resolved, it is the exempt path: whatever it reaches sends no mail.
  ['/api//%6Ceave', false],
  ['/index.html', false],
])(
  'counts a POST to %s, which is no route as spelled (the API answers it 404), as the path it resolves to: %s',
  (path, counted) => {
    expect(isApiRoute(path)).toBe(false);
    expect(wafMatches(scopeDown(), { method: 'POST', path })).toBe(counted);
  },
);

it('answers a client past the limit 429 with the shared page and a Retry-After header', () => {
  expect(rules()[0]?.Action).toEqual({
    Block: {
      CustomResponse: {
        ResponseCode: 429,
        CustomResponseBodyKey: 'too-many-requests',
        ResponseHeaders: [{ Name: 'retry-after', Value: TOO_MANY_REQUESTS_RETRY_AFTER }],
      },
    },
  });
  expect(webAcl.CustomResponseBodies).toEqual({
    'too-many-requests': { ContentType: 'TEXT_HTML', Content: TOO_MANY_REQUESTS_HTML },
  });
});

it('is the distribution’s web ACL, read from the edge stack, which deploys first', () => {
  const config = resourcesOf(Template.fromStack(mandje), 'AWS::CloudFront::Distribution')[0]?.Properties
    .DistributionConfig as { WebACLId: unknown };
  expect(config.WebACLId).toMatchObject({
    'Fn::GetStackOutput': { StackName: edge.stackName, Region: 'us-east-1' },
  });
  expect(mandje.dependencies).toContain(edge);
});

// cdk-nag's acknowledgement of the missing web ACL: test/infra/cdk-nag's run without WAF.
it('is left out with -c waf=false: no us-east-1 stack, no web ACL', () => {
  const app = new App({ context: { mailFrom: MAIL_FROM, waf: 'false' } });
  const stacks = synthStacks(deploySettings(app), app);
  expect(stacks.edge).toBeUndefined();
  expect(app.node.children.filter((child) => child instanceof Stack).map((stack) => stack.node.id)).toEqual([
    'Mandje',
  ]);
  expect(JSON.stringify(Template.fromStack(stacks.mandje).toJSON())).not.toMatch(/WebACL|GetStackOutput/);
});
