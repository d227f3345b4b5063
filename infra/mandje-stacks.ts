import { type App, CrossStackReferences, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import {
  CLIENT_LIMIT_EXEMPT_PATHS,
  CLIENT_LIMITED_PREFIX,
  CLIENT_POSTS_PER_MINUTE,
} from '#contract/abuse-limits';
import {
  TOO_MANY_REQUESTS_HTML,
  TOO_MANY_REQUESTS_RETRY_AFTER,
  TOO_MANY_REQUESTS_STATUS,
} from '#contract/too-many-requests';
import { MandjeStack, type MandjeStackProps } from './mandje-stack';

/** The rule's name, and the name of its metric (AWS/WAFV2, dimension Rule). */
const CLIENT_RATE_RULE = 'PostsPerClient';

const TOO_MANY_REQUESTS_BODY = 'too-many-requests';

/** A byte match on the method, or the path URL-decoded as CloudFront routes it. */
const matches = (
  field: 'method' | 'uriPath',
  positionalConstraint: 'EXACTLY' | 'STARTS_WITH',
  searchString: string,
): CfnWebACL.StatementProperty => ({
  byteMatchStatement: {
    fieldToMatch: { [field]: {} },
    positionalConstraint,
    searchString,
    textTransformations: [{ priority: 0, type: field === 'method' ? 'NONE' : 'URL_DECODE' }],
  },
});
const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: false,
});

/**
 * The companion of the Mandje stack in us-east-1, where CloudFront takes its AWS WAF web ACL from: each client
 * IP address may POST to /api/* CLIENT_POSTS_PER_MINUTE times a minute, then gets 429 until its rate falls; the
 * exempt paths send no mail (the runner's countsTowardClientLimit is the same rule). No requests are sampled:
 * a sample holds the client's IP address, which the privacy notice says is not kept.
 */
export class MandjeEdgeStack extends Stack {
  public readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, props);
    // Its metrics are found by the web ACL's name.
    const name = `${id}-client-rate-limit`;
    this.webAcl = new CfnWebACL(new Construct(this, 'ClientRateLimit'), 'WebAcl', {
      name,
      description: 'Mandje: a per-client limit on posts to the API',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      customResponseBodies: {
        [TOO_MANY_REQUESTS_BODY]: { contentType: 'TEXT_HTML', content: TOO_MANY_REQUESTS_HTML },
      },
      rules: [
        {
          name: CLIENT_RATE_RULE,
          priority: 0,
          statement: {
            rateBasedStatement: {
              limit: CLIENT_POSTS_PER_MINUTE,
              evaluationWindowSec: 60,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                andStatement: {
                  statements: [
                    matches('method', 'EXACTLY', 'POST'),
                    matches('uriPath', 'STARTS_WITH', CLIENT_LIMITED_PREFIX),
                    {
                      notStatement: {
                        statement: {
                          orStatement: {
                            statements: CLIENT_LIMIT_EXEMPT_PATHS.flatMap((exempt) => [
                              matches('uriPath', 'EXACTLY', exempt),
                              matches('uriPath', 'STARTS_WITH', `${exempt}/`),
                            ]),
                          },
                        },
                      },
                    },
                  ],
                },
              },
            },
          },
          action: {
            block: {
              customResponse: {
                responseCode: TOO_MANY_REQUESTS_STATUS,
                customResponseBodyKey: TOO_MANY_REQUESTS_BODY,
                responseHeaders: [{ name: 'retry-after', value: TOO_MANY_REQUESTS_RETRY_AFTER }],
              },
            },
          },
          visibilityConfig: visibility(CLIENT_RATE_RULE),
        },
      ],
      visibilityConfig: visibility(name),
    });
    // A weak reference: CloudFormation reads the output itself, where a strong one would need a custom
    // resource (a Lambda function) in each stack. WAF refuses to delete a web ACL a distribution still uses.
    CrossStackReferences.of(this.webAcl).produce(ReferenceStrength.WEAK);
  }
}

export interface MandjeStacksProps extends Omit<MandjeStackProps, 'webAclArn'> {
  /** The per-client limit at the edge: AWS WAF in a companion stack in us-east-1. */
  waf: boolean;
  /** The region must be known, for the edge stack's reference. */
  env: { account?: string; region: string };
}

/** The stacks of one deployment, in the order `cdk deploy --all` deploys them. */
export function addMandjeStacks(app: App, { waf, ...props }: MandjeStacksProps) {
  const edge = waf
    ? new MandjeEdgeStack(app, 'MandjeEdge', {
        description:
          'Mandje: the per-client limit at the edge (AWS WAF for CloudFront, which lives in us-east-1)',
        env: { account: props.env.account, region: 'us-east-1' },
      })
    : undefined;
  return {
    mandje: new MandjeStack(app, 'Mandje', { ...props, webAclArn: edge?.webAcl.attrArn }),
    edge,
  };
}
