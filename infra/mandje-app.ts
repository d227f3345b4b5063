import { type App, CrossStackReferences, ReferenceStrength, Stack, Validations } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { AwsSolutionsChecks } from 'cdk-nag';
import { Construct } from 'constructs';
import {
  CLIENT_LIMIT_EXEMPT_PATHS,
  CLIENT_LIMITED_PREFIX,
  CLIENT_POSTS_PER_MINUTE,
} from '#contract/abuse-limits';
import { readSiteConfig, requireController, type SiteEnvironment } from '#contract/site-config';
import {
  TOO_MANY_REQUESTS_HTML,
  TOO_MANY_REQUESTS_RETRY_AFTER,
  TOO_MANY_REQUESTS_STATUS,
} from '#contract/too-many-requests';
import { deploySettings } from './deploy-settings';
import { MandjeStack, type MandjeStackProps } from './mandje-stack';
import { nagAcknowledgements } from './nag-acknowledgements';

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

  constructor(app: App, account: string | undefined) {
    super(app, 'MandjeEdge', {
      description:
        'Mandje: the per-client limit at the edge (AWS WAF for CloudFront, which lives in us-east-1)',
      env: { account, region: 'us-east-1' },
    });
    // Its metrics are found by the web ACL's name.
    const name = `${this.stackName}-client-rate-limit`;
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
  const edge = waf ? new MandjeEdgeStack(app, props.env.account) : undefined;
  return {
    mandje: new MandjeStack(app, 'Mandje', { ...props, webAclArn: edge?.webAcl.attrArn }),
    edge,
  };
}

/** The site's facts (MANDJE_*, #contract/site-config), and the account and region the CDK CLI gives. */
type AppEnvironment = SiteEnvironment & { CDK_DEFAULT_ACCOUNT?: string; CDK_DEFAULT_REGION?: string };

/**
 * The stacks of one deployment with cdk-nag's checks. The site must name the controller of the data: whatever
 * this app synthesizes is meant to go live. Throws DeploySettingError or SiteConfigError for a setting to correct.
 */
export function addMandjeApp(
  app: App,
  { siteDir, functionsDir, env }: { siteDir: string; functionsDir: string; env: AppEnvironment },
) {
  const site = readSiteConfig(env);
  requireController(site);
  const stacks = addMandjeStacks(app, {
    description: 'Mandje: landing page and waitlist',
    siteDir,
    functionsDir,
    // The edge stack's reference needs a known region; the CDK CLI always gives one.
    env: { account: env.CDK_DEFAULT_ACCOUNT, region: env.CDK_DEFAULT_REGION ?? 'eu-west-1' },
    contactEmail: site.contactEmail,
    ...deploySettings(app, env),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  // The us-east-1 companion stack has no findings to accept.
  for (const { construct, rule: id, reason } of nagAcknowledgements(stacks.mandje))
    Validations.of(construct).acknowledge({ id, reason });
  return stacks;
}
