import type { DeployedStack } from './deployed-stack';

/**
 * CloudFront between the viewer and an origin, as the template's distribution sets it: the behaviour whose
 * path pattern matches, its origin, the headers its origin request policy forwards (the viewer's and
 * CloudFront's own, such as CloudFront-Viewer-Address), and the origin's custom headers. The Host that
 * reaches the origin is the origin's own domain unless the policy forwards the viewer's.
 */

/** CloudFront's managed origin request policies, by id: which headers each forwards. */
const MANAGED: Record<string, (header: string) => boolean> = {
  // AllViewer
  '216adef6-5c7f-47e4-b989-5492eafa07d3': (header) => !header.startsWith('cloudfront-'),
  // AllViewerExceptHostHeader: also every CloudFront header
  'b689b0a8-53d0-40ab-baf2-68738e2966ac': (header) => header !== 'host',
  // AllViewerAndCloudFrontHeaders-2022-06
  '33f36d7e-f396-46d9-90e0-52428a34d9dc': () => true,
};

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
  const distribution = stack.template.Resources[stack.only('AWS::CloudFront::Distribution')]?.Properties
    ?.DistributionConfig as {
    CacheBehaviors?: Behavior[];
    DefaultCacheBehavior: Behavior;
    Origins: Origin[];
  };
  const matches = ({ PathPattern = '' }: Behavior) =>
    new RegExp(`^${PathPattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(path);
  const behavior = distribution.CacheBehaviors?.find(matches) ?? distribution.DefaultCacheBehavior;
  const origin = distribution.Origins.find(({ Id }) => Id === behavior.TargetOriginId);
  if (!origin) throw new Error(`the behaviour for ${path} names an origin the distribution does not have`);
  const originDomain = String(stack.resolve(origin.DomainName));
  const policy = behavior.OriginRequestPolicyId;
  const forwards = policy === undefined ? () => false : MANAGED[String(policy)];
  if (!forwards)
    throw new Error(`an origin request policy this path does not model: ${JSON.stringify(policy)}`);
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
      ...Object.fromEntries(Object.entries(headers).filter(([name]) => forwards(name))),
      ...Object.fromEntries(custom),
    },
  };
}
