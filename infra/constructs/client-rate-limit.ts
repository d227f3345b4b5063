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

export interface ClientRateLimitProps {
  /** The web ACL's name, which its CloudWatch metrics are found by. */
  name: string;
}

/** The rule's name, and the name of its metric (AWS/WAFV2, dimension Rule). */
export const CLIENT_RATE_RULE = 'PostsPerClient';

const TOO_MANY_REQUESTS_BODY = 'too-many-requests';

/** A byte match on one part of the request, as it arrives (the path URL-decoded, as CloudFront routes it). */
const matches = (
  fieldToMatch: CfnWebACL.FieldToMatchProperty,
  positionalConstraint: 'EXACTLY' | 'STARTS_WITH',
  searchString: string,
  transformation: 'NONE' | 'URL_DECODE',
): CfnWebACL.StatementProperty => ({
  byteMatchStatement: {
    fieldToMatch,
    positionalConstraint,
    searchString,
    textTransformations: [{ priority: 0, type: transformation }],
  },
});

/**
 * An AWS WAF web ACL for a CloudFront distribution (so it lives in us-east-1): each client IP address may
 * POST to /api/* CLIENT_POSTS_PER_MINUTE times a minute; past that it gets 429 with the page of
 * #contract/too-many-requests until its rate falls. Posts to leave and the pages' visit beacons
 * (CLIENT_LIMIT_EXEMPT_PATHS and under them) are neither counted nor refused: they send no mail, mail
 * providers post one-click unsubscribes for many people from a few addresses, and every page load sends a
 * beacon (countsTowardClientLimit is the same rule, for the runner). Everything else passes. No requests
 * are sampled: a sample holds the client's IP address, which the privacy notice says is not kept.
 */
export class ClientRateLimit extends Construct {
  public readonly webAcl: CfnWebACL;
  public readonly name: string;

  constructor(scope: Construct, id: string, props: ClientRateLimitProps) {
    super(scope, id);
    this.name = props.name;
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: props.name,
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
                    matches({ method: {} }, 'EXACTLY', 'POST', 'NONE'),
                    matches({ uriPath: {} }, 'STARTS_WITH', CLIENT_LIMITED_PREFIX, 'URL_DECODE'),
                    {
                      notStatement: {
                        statement: {
                          orStatement: {
                            statements: CLIENT_LIMIT_EXEMPT_PATHS.flatMap((exempt) => [
                              matches({ uriPath: {} }, 'EXACTLY', exempt, 'URL_DECODE'),
                              matches({ uriPath: {} }, 'STARTS_WITH', `${exempt}/`, 'URL_DECODE'),
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
          visibilityConfig: {
            cloudWatchMetricsEnabled: true,
            metricName: CLIENT_RATE_RULE,
            sampledRequestsEnabled: false,
          },
        },
      ],
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        metricName: props.name,
        sampledRequestsEnabled: false,
      },
    });
  }

  /** What a distribution's webAclId takes: the web ACL's ARN. */
  get arn(): string {
    return this.webAcl.attrArn;
  }
}
