import { type CfnResource, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { BuiltFunction } from './constructs/built-function';
import type { MandjeEdgeStack } from './edge-stack';
import type { MandjeStack } from './mandje-stack';

export interface NagAcknowledgement {
  construct: IConstruct;
  rule: string;
  reason: string;
}

const rule = (id: string) => `AwsSolutions::AwsSolutions-${id}`;

/**
 * The cdk-nag AwsSolutions findings this stack accepts, each on the one resource it concerns, with the
 * reason. The README lists them; a test checks that nothing else is flagged.
 */
export function nagAcknowledgements(stack: MandjeStack): NagAcknowledgement[] {
  const { site, waitlist, mailer, mailEvents } = stack;
  const acknowledgements: NagAcknowledgement[] = [
    {
      construct: waitlist.httpApi,
      rule: rule('APIG4'),
      reason:
        'Joining the waitlist, confirming a signup and leaving it are public by design: anonymous visitors, no accounts; only the token mailed to an address confirms it or removes it.',
    },
    {
      construct: site.distribution,
      rule: rule('CFR1'),
      reason:
        'The page is for Dutch shoppers but is public information; blocking countries would only hinder travellers.',
    },
    {
      construct: site.distribution,
      rule: rule('CFR3'),
      reason:
        'The distribution keeps no access logs: they would record confirmation tokens and IP addresses. Visitors are counted by the API without either (functions/visit), and the API’s own access log keeps no address.',
    },
    {
      construct: waitlist.visitorTable,
      rule: rule('DDB3'),
      reason:
        'The visitor table holds the day’s salt and visitors’ hashes, each deleted after its day: a backup would keep the salt, which must not outlive its day.',
    },
  ];
  if (!site.hasWebAcl)
    acknowledgements.push({
      construct: site.distribution,
      rule: rule('CFR2'),
      reason:
        'Deployed with -c waf=false, which leaves out the per-client limit at the edge: the API stage’s throttle and the per-mailbox mail limit still hold.',
    });
  acknowledgements.push({
    construct: stack.originVerify.secret,
    rule: rule('SMG4'),
    reason:
      'CloudFormation reads the origin secret into CloudFront and the functions only when they are updated, so an in-place rotation would split them; it is rotated by replacing it in a deploy (README, "Abuse and limits").',
  });
  acknowledgements.push({
    construct: stack.operations.topic,
    rule: rule('SNS2'),
    reason:
      'The alarm topic carries alarm names and states, no personal data; CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key, and a key of our own would cost more than the alarms.',
  });
  for (const built of stack.node.findAll().filter((child) => child instanceof BuiltFunction)) {
    const logsId = stack.getLogicalId(built.logGroup.node.defaultChild as CfnResource);
    acknowledgements.push({
      construct: built.role,
      rule: `${rule('IAM5')}[Resource::<${logsId}.Arn>:*]`,
      reason:
        'Log streams are created at run time under the function’s own log group; the wildcard is that group’s streams only.',
    });
  }
  if (mailer) {
    const { priority, bulk, deadLetterQueue } = mailer.queues;
    acknowledgements.push(
      {
        construct: mailer.requestHandler.role ?? mailer.requestHandler,
        rule: `${rule('IAM5')}[Resource::*]`,
        reason:
          'dynamodb:ListStreams has no resource-level permission, and the stream event source needs it; the records are read from this table’s stream only.',
      },
      {
        construct: mailer.requestsDeadLetterQueue,
        rule: rule('SQS3'),
        reason:
          'This queue is a dead-letter queue: the mail-requests stream event source’s on-failure destination, which cdk-nag does not recognize as one.',
      },
      ...[priority, bulk].map((queue) => ({
        construct: queue,
        rule: rule('SQS3'),
        reason:
          'A mail queue gives up no message after a number of receives: a mail waits (throttled, or SES down) until it is sent, and the mailer itself moves only a mail that can never be sent to the mail dead-letter queue.',
      })),
      {
        construct: deadLetterQueue,
        rule: rule('SQS3'),
        reason:
          'This queue is the mail dead-letter queue: the mailer moves never-sendable mails to it itself (with their class and reason), so no redrive policy names it and cdk-nag does not recognize it as one.',
      },
      {
        construct: mailer.mailLimitTable,
        rule: rule('DDB3'),
        reason:
          'The mail limit table holds hashes only: counts that expire within a day, and suppressed mailboxes, which no function deletes and which are kept when the stack goes (the table is retained).',
      },
      {
        construct: mailer.handler.role ?? mailer.handler,
        rule: `${rule('IAM5')}[Resource::*]`,
        reason:
          'ses:GetAccount (the account’s daily quota and maximum send rate) has no resource-level permission; it reads the account’s sending quota and status and nothing else.',
      },
    );
  }
  if (mailEvents)
    acknowledgements.push({
      construct: mailEvents.deadLetterQueue,
      rule: rule('SQS3'),
      reason:
        'This queue is a dead-letter queue: the EventBridge target’s and the function’s failure destination, which cdk-nag does not recognize as one.',
    });
  if (!site.hasCustomDomain) {
    acknowledgements.push({
      construct: site.distribution,
      rule: rule('CFR4'),
      reason:
        'Without a custom domain CloudFront’s default certificate is used, whose TLS floor cannot be set; with a domain the floor is TLS 1.2 (2021).',
    });
  }
  // CDK's own BucketDeployment handler: its runtime, managed policy and S3 wildcards are CDK's choice. Its
  // findings name asset-bucket ARNs that vary by account and region, so they are read off the handler itself.
  const deploymentHandler = stack.node.children.find((child) =>
    child.node.id.startsWith('Custom::CDKBucketDeployment'),
  );
  const deploymentReasons: Record<string, string> = {
    IAM4: 'CDK’s BucketDeployment handler uses the AWS managed basic execution policy for its logs.',
    IAM5: 'CDK’s BucketDeployment handler copies any object of the asset into the site bucket, so its S3 actions and keys are wildcards.',
    L1: 'CDK’s BucketDeployment handler runtime is pinned by aws-cdk-lib, not by this stack.',
  };
  if (deploymentHandler) {
    for (const { ruleName } of new AwsSolutionsChecks().validateScope(deploymentHandler).violations) {
      const reason = deploymentReasons[ruleName.replace(/^AwsSolutions-/, '').replace(/\[.*$/, '')];
      if (reason)
        acknowledgements.push({ construct: deploymentHandler, rule: `AwsSolutions::${ruleName}`, reason });
    }
  }
  return acknowledgements;
}

export function acknowledgeNagFindings(stack: MandjeStack): void {
  for (const { construct, rule: id, reason } of nagAcknowledgements(stack)) {
    Validations.of(construct).acknowledge({ id, reason });
  }
}

/** The findings the us-east-1 companion stack accepts: none of its own so far. */
export function edgeNagAcknowledgements(_stack: MandjeEdgeStack): NagAcknowledgement[] {
  return [];
}

export function acknowledgeEdgeNagFindings(stack: MandjeEdgeStack): void {
  for (const { construct, rule: id, reason } of edgeNagAcknowledgements(stack)) {
    Validations.of(construct).acknowledge({ id, reason });
  }
}
