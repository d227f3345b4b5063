import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, expect, it } from 'vitest';
import { CLIENT_POSTS_PER_MINUTE, countsTowardClientLimit } from '#contract/abuse-limits';
import { isApiRoute } from '#contract/api-routes';
import { CONFIRM_PATH } from '#contract/confirmation';
import { LEAVE_PATH, LEAVE_REQUEST_PATH } from '#contract/leave';
import {
  TOO_MANY_REQUESTS_HTML,
  TOO_MANY_REQUESTS_RETRY_AFTER,
  TOO_MANY_REQUESTS_STATUS,
} from '#contract/too-many-requests';
import { VISIT_PATH } from '#contract/visit-counting';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import type { MandjeEdgeStack } from '../../infra/mandje-app';
import type { MandjeStack } from '../../infra/mandje-stack';
import { synthStacks } from './synth';
import { distributionConfigOf, present, type Resource } from './template-queries';

let mandje: MandjeStack;
let edge: MandjeEdgeStack;
let edgeTemplate: Template;
let webAcl: Record<string, unknown>;

type Rule = {
  Name: string;
  Statement: { RateBasedStatement: Record<string, unknown> };
  Action: Record<string, unknown>;
  VisibilityConfig: Record<string, unknown>;
};
const rules = () => webAcl.Rules as Rule[];

beforeAll(() => {
  ({ mandje, edge } = synthStacks() as { mandje: MandjeStack; edge: MandjeEdgeStack });
  edgeTemplate = Template.fromStack(present(edge, 'edge stack'));
  const [acl] = Object.values(edgeTemplate.findResources('AWS::WAFv2::WebACL')) as Resource[];
  webAcl = present(acl, 'web ACL').Properties;
});

it('puts the web ACL in its own stack in us-east-1, where CloudFront takes it from, scoped to CloudFront', () => {
  expect(Stack.of(edge.webAcl).region).toBe('us-east-1');
  expect(Stack.of(mandje.site.distribution).region).toBe('eu-west-1');
  expect(webAcl.Scope).toBe('CLOUDFRONT');
});

it('lets every request through by default: the one rule is the only thing it blocks', () => {
  expect(webAcl.DefaultAction).toEqual({ Allow: {} });
  expect(rules().map((rule) => rule.Name)).toEqual(['PostsPerClient']);
});

/** The path percent-decoded, then normalized (doubled slashes, `.` and `..` segments), in that order. */
const PATH_AS_RESOLVED = [
  { Priority: 0, Type: 'URL_DECODE' },
  { Priority: 1, Type: 'NORMALIZE_PATH' },
];

it('counts POSTs to /api/* but to leave and the visit beacon, spelled exactly once resolved, per client IP address, CLIENT_POSTS_PER_MINUTE in each 60-second window', () => {
  const [rule] = rules();
  expect(rule?.Statement.RateBasedStatement).toMatchObject({
    AggregateKeyType: 'IP',
    Limit: CLIENT_POSTS_PER_MINUTE,
    EvaluationWindowSec: 60,
    ScopeDownStatement: {
      AndStatement: {
        Statements: [
          {
            ByteMatchStatement: {
              FieldToMatch: { Method: {} },
              PositionalConstraint: 'EXACTLY',
              SearchString: 'POST',
            },
          },
          {
            ByteMatchStatement: {
              FieldToMatch: { UriPath: {} },
              PositionalConstraint: 'STARTS_WITH',
              SearchString: '/api/',
              TextTransformations: PATH_AS_RESOLVED,
            },
          },
          {
            NotStatement: {
              Statement: {
                OrStatement: {
                  Statements: [LEAVE_PATH, VISIT_PATH].map((exempt) => ({
                    ByteMatchStatement: {
                      FieldToMatch: { UriPath: {} },
                      PositionalConstraint: 'EXACTLY',
                      SearchString: exempt,
                      TextTransformations: PATH_AS_RESOLVED,
                    },
                  })),
                },
              },
            },
          },
        ],
      },
    },
  });
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

const scopeDown = () =>
  present(rules()[0], 'rule').Statement.RateBasedStatement.ScopeDownStatement as WafStatement;

it.each([
  ['POST', WAITLIST_PATH, true],
  ['POST', LEAVE_REQUEST_PATH, true],
  ['POST', CONFIRM_PATH, true],
  ['POST', LEAVE_PATH, false],
  ['POST', VISIT_PATH, false],
  ['GET', WAITLIST_PATH, false],
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
  const [rule] = rules();
  expect(rule?.Action).toEqual({
    Block: {
      CustomResponse: {
        ResponseCode: TOO_MANY_REQUESTS_STATUS,
        CustomResponseBodyKey: 'too-many-requests',
        ResponseHeaders: [{ Name: 'retry-after', Value: TOO_MANY_REQUESTS_RETRY_AFTER }],
      },
    },
  });
  expect(webAcl.CustomResponseBodies).toEqual({
    'too-many-requests': { ContentType: 'TEXT_HTML', Content: TOO_MANY_REQUESTS_HTML },
  });
  expect(TOO_MANY_REQUESTS_STATUS).toBe(429);
});

it('keeps metrics but samples no requests, which would keep clients’ IP addresses', () => {
  for (const config of [webAcl.VisibilityConfig, rules()[0]?.VisibilityConfig])
    expect(config).toMatchObject({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: false });
});

it('is the distribution’s web ACL, its ARN read from the edge stack’s output across regions', () => {
  const { WebACLId: webAclId } = distributionConfigOf(Template.fromStack(mandje));
  const outputs = edgeTemplate.findOutputs('*');
  const [arnOutput] = Object.keys(outputs).filter(
    (name) =>
      JSON.stringify(outputs[name]?.Value) ===
      JSON.stringify({ 'Fn::GetAtt': [edge.getLogicalId(edge.webAcl), 'Arn'] }),
  );
  expect(webAclId).toEqual({
    'Fn::GetStackOutput': { StackName: edge.stackName, Region: 'us-east-1', OutputName: arnOutput },
  });
});

it('is deployed before the Mandje stack, which reads its output', () => {
  expect(mandje.dependencies).toContain(edge);
});
