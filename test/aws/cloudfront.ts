import type { DeployedStack } from './deployed-stack';

/**
 * CloudFront between the viewer and an origin, as the template's distribution sets it: the behaviour whose
 * path pattern matches, its origin, the headers its origin request policy forwards (the viewer's and
 * CloudFront's own, such as CloudFront-Viewer-Address), and the origin's custom headers. The Host that
 * reaches the origin is the origin's own domain unless the policy forwards the viewer's.
 */

type Forwards = (header: string) => boolean;
const isCloudFronts = (header: string) => header.startsWith('cloudfront-');
const only =
  (...headers: string[]): Forwards =>
  (header) =>
    headers.includes(header);

/** CloudFront's managed origin request policies, by id (aws-cdk-lib's OriginRequestPolicy constants). */
const MANAGED: Record<string, Forwards> = {
  // AllViewer
  '216adef6-5c7f-47e4-b989-5492eafa07d3': (header) => !isCloudFronts(header),
  // AllViewerExceptHostHeader: also every CloudFront header
  'b689b0a8-53d0-40ab-baf2-68738e2966ac': (header) => header !== 'host',
  // AllViewerAndCloudFrontHeaders-2022-06
  '33f36d7e-f396-46d9-90e0-52428a34d9dc': () => true,
  // HostHeaderOnly
  'bf0718e1-ba1e-49d1-88b1-f726733018ae': only('host'),
  // CORS-CustomOrigin
  '59781a5b-3903-41f3-afcb-af62929ccde1': only('origin'),
  // CORS-S3Origin
  '88a5eaf4-2fd4-4709-b370-b4c650ea3fcf': only(
    'origin',
    'access-control-request-headers',
    'access-control-request-method',
  ),
  // UserAgentRefererHeaders
  'acba4595-bd28-49b8-b9fe-13317c0390fa': only('user-agent', 'referer'),
};

/** An origin request policy of the template's own, by its HeadersConfig. */
function ownPolicy(config: { HeaderBehavior: string; Headers?: string[] }): Forwards {
  const listed = only(...(config.Headers ?? []).map((header) => header.toLowerCase()));
  const forwards: Record<string, Forwards> = {
    none: () => false,
    whitelist: listed,
    allViewer: (header) => !isCloudFronts(header),
    allViewerAndWhitelistCloudFront: (header) => !isCloudFronts(header) || listed(header),
    allExcept: (header) => !isCloudFronts(header) && !listed(header),
  };
  const policy = forwards[config.HeaderBehavior];
  if (!policy) throw new Error(`a header behaviour this path does not model: ${config.HeaderBehavior}`);
  return policy;
}

type Behavior = { PathPattern?: string; TargetOriginId: string; OriginRequestPolicyId?: unknown };
type Origin = {
  Id: string;
  DomainName: unknown;
  OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[];
};

/** What reaches the origin of a request to `path` with the viewer's (and CloudFront's) `headers`, lower-case. */
export function throughCloudFront(
  stack: DeployedStack,
  path: string,
  headers: Record<string, string>,
): { originDomain: string; headers: Record<string, string> } {
  const resources = stack.template.Resources;
  const distribution = resources[stack.only('AWS::CloudFront::Distribution')]?.Properties
    ?.DistributionConfig as {
    CacheBehaviors?: Behavior[];
    DefaultCacheBehavior: Behavior;
    Origins: Origin[];
  };
  const matches = ({ PathPattern = '' }: Behavior) =>
    new RegExp(
      `^${PathPattern.replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    ).test(path);
  const behavior = distribution.CacheBehaviors?.find(matches) ?? distribution.DefaultCacheBehavior;
  const origin = distribution.Origins.find(({ Id }) => Id === behavior.TargetOriginId);
  if (!origin) throw new Error(`the behaviour for ${path} names an origin the distribution does not have`);
  const originDomain = String(stack.resolve(origin.DomainName));

  const policyId = behavior.OriginRequestPolicyId;
  const ownId = (policyId as { Ref?: string } | undefined)?.Ref;
  const ownConfig = ownId && resources[ownId]?.Properties?.OriginRequestPolicyConfig;
  const forwards: Forwards | undefined =
    policyId === undefined
      ? () => false
      : ownConfig
        ? ownPolicy((ownConfig as { HeadersConfig: { HeaderBehavior: string } }).HeadersConfig)
        : MANAGED[String(policyId)];
  if (!forwards) throw new Error(`an origin request policy this path does not model: ${String(policyId)}`);

  const forwarded = Object.fromEntries(Object.entries(headers).filter(([name]) => forwards(name)));
  const custom = (origin.OriginCustomHeaders ?? []).map(({ HeaderName, HeaderValue }) => [
    HeaderName.toLowerCase(),
    String(stack.resolve(HeaderValue)),
  ]);
  return {
    originDomain,
    headers: {
      // A body's type always goes; CloudFront names itself when the viewer's agent is not forwarded.
      ...(headers['content-type'] ? { 'content-type': headers['content-type'] } : {}),
      'user-agent': 'Amazon CloudFront',
      host: originDomain,
      ...forwarded,
      ...Object.fromEntries(custom),
    },
  };
}
