import type { CfnResource } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { BuiltFunction } from './constructs/built-function';
import type { MandjeStack } from './mandje-stack';

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

/** CDK's own BucketDeployment handler's findings, by rule. */
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
  // CDK's BucketDeployment handler: its findings name asset-bucket ARNs that vary by account and region, so
  // they are read off the handler itself.
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
