import type { App, CfnResource } from 'aws-cdk-lib';
import { CrossStackReferences, ReferenceStrength, Stack, Validations } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { AwsSolutionsChecks } from 'cdk-nag';
import { Construct, type IConstruct } from 'constructs';
import { CLIENT_LIMIT_EXEMPT_PATHS, CLIENT_POSTS_PER_MINUTE } from '#contract/abuse-limits';
import { API_PREFIX } from '#contract/api-routes';
import { readSiteConfig, requireController, type SiteEnvironment } from '#contract/site-config';
import * as tooManyRequests from '#contract/too-many-requests';
import { BuiltFunction } from './constructs/built-function';
import { deploySettings } from './deploy-settings';
import { MandjeStack, type MandjeStackProps } from './mandje-stack';

// The rule's name is its metric's (AWS/WAFV2, dimension Rule).
const RULE = 'PostsPerClient';
const BODY = 'too-many-requests';

/** A byte match on the method, or on the path as a server might resolve it: percent-decoded, with doubled
 * slashes and dot segments resolved (`/api/leave/%2e%2e/waitlist` is `/api/waitlist`). */
const matches = (field: 'method' | 'uriPath', positionalConstraint: string, searchString: string) => ({
  byteMatchStatement: {
    fieldToMatch: { [field]: {} },
    positionalConstraint,
    searchString,
    textTransformations: (field === 'method' ? ['NONE'] : ['URL_DECODE', 'NORMALIZE_PATH']).map(
      (type, priority) => ({ priority, type }),
    ),
  },
});
// No sampled requests: a sample holds the client's IP address, which the privacy notice says is not kept.
const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: false,
});

/** In us-east-1, where CloudFront takes its web ACL from: CLIENT_POSTS_PER_MINUTE posts to /api/* per IP. */
export class MandjeEdgeStack extends Stack {
  public readonly webAcl: CfnWebACL;

  constructor(app: App, account: string | undefined) {
    super(app, 'MandjeEdge', {
      description:
        'Mandje: the per-client limit at the edge (AWS WAF for CloudFront, which lives in us-east-1)',
      env: { account, region: 'us-east-1' },
    });
    const name = `${this.stackName}-client-rate-limit`;
    // Exact paths: any other spelling counts, and the API answers it 404 (#contract/api-routes).
    const exempt = CLIENT_LIMIT_EXEMPT_PATHS.map((path) => matches('uriPath', 'EXACTLY', path));
    this.webAcl = new CfnWebACL(new Construct(this, 'ClientRateLimit'), 'WebAcl', {
      name,
      description: 'Mandje: a per-client limit on posts to the API',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      customResponseBodies: {
        [BODY]: { contentType: 'TEXT_HTML', content: tooManyRequests.TOO_MANY_REQUESTS_HTML },
      },
      rules: [
        {
          name: RULE,
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
                    matches('uriPath', 'STARTS_WITH', API_PREFIX),
                    { notStatement: { statement: { orStatement: { statements: exempt } } } },
                  ],
                },
              },
            },
          },
          action: {
            block: {
              customResponse: {
                responseCode: tooManyRequests.TOO_MANY_REQUESTS_STATUS,
                customResponseBodyKey: BODY,
                responseHeaders: [
                  { name: 'retry-after', value: tooManyRequests.TOO_MANY_REQUESTS_RETRY_AFTER },
                ],
              },
            },
          },
          visibilityConfig: visibility(RULE),
        },
      ],
      visibilityConfig: visibility(name),
    });
    // Weak: CloudFormation reads the output itself; a strong reference would need a custom resource per stack.
    CrossStackReferences.of(this.webAcl).produce(ReferenceStrength.WEAK);
  }
}

export interface MandjeStacksProps extends Omit<MandjeStackProps, 'webAclArn'> {
  waf: boolean;
  env: { account?: string; region: string };
}

/** The stacks of one deployment, in the order `cdk deploy --all` deploys them. */
export function addMandjeStacks(app: App, { waf, ...props }: MandjeStacksProps) {
  const edge = waf ? new MandjeEdgeStack(app, props.env.account) : undefined;
  return { mandje: new MandjeStack(app, 'Mandje', { ...props, webAclArn: edge?.webAcl.attrArn }), edge };
}

/** Why each accepted finding is accepted (docs/deploying.md lists them). */
const REASONS = {
  APIG4:
    'Joining the waitlist, confirming a signup and leaving it are public by design: anonymous visitors, no accounts; only the token mailed to an address confirms it or removes it.',
  CFR1: 'The page is for Dutch shoppers but is public information; blocking countries would only hinder travellers.',
  CFR2: 'Deployed with -c waf=false, which leaves out the per-client limit at the edge: the API stage’s throttle and the per-mailbox mail limit still hold.',
  CFR3: 'The distribution keeps no access logs: they would record confirmation tokens and IP addresses. Visitors are counted by the API without either (functions/visit), and the API’s own access log keeps no address.',
  CFR4: 'Without a custom domain CloudFront’s default certificate is used, whose TLS floor cannot be set; with a domain the floor is TLS 1.2 (2021).',
  visitorTable:
    'The visitor table holds the day’s salt and visitors’ hashes, each deleted after its day: a backup would keep the salt, which must not outlive its day.',
  mailLimitTable:
    'The mail limit table holds hashes only: counts that expire within a day, and suppressed mailboxes, which no function deletes and which are kept when the stack goes (the table is retained).',
  SMG4: 'CloudFormation reads the origin secret into CloudFront and the functions only when they are updated, so an in-place rotation would split them; it is rotated by replacing it in a deploy (README, "Abuse and limits").',
  SNS2: 'The alarm topic carries alarm names and states, no personal data; CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key, and a key of our own would cost more than the alarms.',
  logStreams:
    'Log streams are created at run time under the function’s own log group; the wildcard is that group’s streams only.',
  listStreams:
    'dynamodb:ListStreams has no resource-level permission, and the stream event source needs it; the records are read from this table’s stream only.',
  getAccount:
    'ses:GetAccount (the account’s daily quota and maximum send rate) has no resource-level permission; it reads the account’s sending quota and status and nothing else.',
  requestsDeadLetters:
    'This queue is a dead-letter queue: the mail-requests stream event source’s on-failure destination, which cdk-nag does not recognize as one.',
  mailQueue:
    'A mail queue gives up no message after a number of receives: a mail waits (throttled, or SES down) until it is sent, and the mailer itself moves only a mail that can never be sent to the mail dead-letter queue.',
  mailDeadLetters:
    'This queue is the mail dead-letter queue: the mailer moves never-sendable mails to it itself (with their class and reason), so no redrive policy names it and cdk-nag does not recognize it as one.',
  eventDeadLetters:
    'This queue is a dead-letter queue: the EventBridge target’s and the function’s failure destination, which cdk-nag does not recognize as one.',
};

const BUCKET_DEPLOYMENT_REASONS: Record<string, string> = {
  IAM4: 'CDK’s BucketDeployment handler uses the AWS managed basic execution policy for its logs.',
  IAM5: 'CDK’s BucketDeployment handler copies any object of the asset into the site bucket, so its S3 actions and keys are wildcards.',
  L1: 'CDK’s BucketDeployment handler runtime is pinned by aws-cdk-lib, not by this stack.',
};

/** The cdk-nag AwsSolutions findings this stack accepts, each on its one resource. */
export function nagAcknowledgements(stack: MandjeStack) {
  const { site, waitlist, mailer, mailEvents } = stack;
  const ack = (construct: IConstruct, rule: string, reason: string) => ({
    construct,
    rule: `AwsSolutions::AwsSolutions-${rule}`,
    reason,
  });
  const acknowledgements = [
    ack(waitlist.httpApi, 'APIG4', REASONS.APIG4),
    ack(site.distribution, 'CFR1', REASONS.CFR1),
    ack(site.distribution, 'CFR3', REASONS.CFR3),
    ack(waitlist.visitorTable, 'DDB3', REASONS.visitorTable),
    ...(site.hasWebAcl ? [] : [ack(site.distribution, 'CFR2', REASONS.CFR2)]),
    ack(stack.originVerifySecret, 'SMG4', REASONS.SMG4),
    ack(stack.operations.topic, 'SNS2', REASONS.SNS2),
    ...stack.node
      .findAll()
      .filter((child) => child instanceof BuiltFunction)
      .map(({ function: { role, logGroup } }) => {
        const logsId = stack.getLogicalId(logGroup.node.defaultChild as CfnResource);
        return ack(role ?? logGroup, `IAM5[Resource::<${logsId}.Arn>:*]`, REASONS.logStreams);
      }),
    ack(mailer.requestHandler.role ?? mailer.requestHandler, 'IAM5[Resource::*]', REASONS.listStreams),
    ack(mailer.requestsDeadLetterQueue, 'SQS3', REASONS.requestsDeadLetters),
    ack(mailer.queues.priority, 'SQS3', REASONS.mailQueue),
    ack(mailer.queues.bulk, 'SQS3', REASONS.mailQueue),
    ack(mailer.queues.deadLetterQueue, 'SQS3', REASONS.mailDeadLetters),
    ack(mailer.mailLimitTable, 'DDB3', REASONS.mailLimitTable),
    ack(mailer.handler.role ?? mailer.handler, 'IAM5[Resource::*]', REASONS.getAccount),
    ack(mailEvents.deadLetterQueue, 'SQS3', REASONS.eventDeadLetters),
    ...(site.hasCustomDomain ? [] : [ack(site.distribution, 'CFR4', REASONS.CFR4)]),
  ];
  // Its findings name asset-bucket ARNs that vary by account and region: read off the handler itself.
  const deploymentHandler = stack.node.children.find((child) =>
    child.node.id.startsWith('Custom::CDKBucketDeployment'),
  );
  if (deploymentHandler)
    for (const { ruleName } of new AwsSolutionsChecks().validateScope(deploymentHandler).violations) {
      const rule = ruleName.replace(/^AwsSolutions-/, '');
      const reason = BUCKET_DEPLOYMENT_REASONS[rule.replace(/\[.*$/, '')];
      if (reason) acknowledgements.push(ack(deploymentHandler, rule, reason));
    }
  return acknowledgements;
}

/** The stacks of one deployment, checked by cdk-nag; what it synthesizes is meant to go live, controller named. */
export function addMandjeApp(
  app: App,
  {
    siteDir,
    functionsDir,
    env,
  }: { siteDir: string; functionsDir: string; env: SiteEnvironment & { CDK_DEFAULT_ACCOUNT?: string } },
) {
  const site = readSiteConfig(env);
  requireController(site);
  const stacks = addMandjeStacks(app, {
    description: 'Mandje: landing page and waitlist',
    siteDir,
    functionsDir,
    // The stack with every address goes to the site config's EU region, not the CLI's (us-east-1 by default).
    env: { account: env.CDK_DEFAULT_ACCOUNT, region: site.region },
    contactEmail: site.contactEmail,
    ...deploySettings(app, env),
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  // The us-east-1 companion stack has no findings to accept.
  for (const { construct, rule: id, reason } of nagAcknowledgements(stacks.mandje))
    Validations.of(construct).acknowledge({ id, reason });
  return stacks;
}
