/**
 * The preflight's checks of the account, through AWS's APIs (`npm run waitlist -- preflight`): the stack, SES,
 * the alarm topic, Lambda's quota and the distribution. Each reads what it needs through the launch's clients,
 * never writes, and says ok, warn (the launch works, less well) or fail (it blocks the launch), with what to
 * do. Their order is the order of the lines printed.
 */
import { GetAccountSettingsCommand, GetFunctionConcurrencyCommand } from '@aws-sdk/client-lambda';
import { GetConfigurationSetEventDestinationsCommand } from '@aws-sdk/client-sesv2';
import { paginateListSubscriptionsByTopic } from '@aws-sdk/client-sns';
import { quotaReserve } from '../functions/mailer/mail-pause';
import { daysNeeded } from './announce-command';
import {
  type Check,
  fail,
  mailFromFinding,
  mailFromOf,
  ok,
  outputOf,
  resourceOf,
  resourcesOf,
  warn,
} from './preflight-launch';

const figure = (value: number) => value.toLocaleString('en');
const plural = (count: number, word: string) => `${figure(count)} ${word}${count === 1 ? '' : 's'}`;
const confirmedPeople = (count: number) => `${figure(count)} confirmed ${count === 1 ? 'person' : 'people'}`;

const stackCheck: Check = {
  name: 'Stack',
  needs: ['cloudformation:DescribeStacks', 'cloudformation:ListStackResources'],
  async run({ stack }) {
    const says = `${stack.name} in ${stack.region} is ${stack.status}`;
    if (/^(CREATE|UPDATE|IMPORT)_COMPLETE$/.test(stack.status)) return ok(says);
    if (stack.status === 'UPDATE_ROLLBACK_COMPLETE')
      return warn(says, 'the last deploy failed and was rolled back: read its events, fix, deploy again');
    if (stack.status.endsWith('_IN_PROGRESS'))
      return fail(says, 'a deploy is under way: run this when it ends');
    return fail(says, 'read the stack’s events in the CloudFormation console, fix, and deploy again');
  },
};

const REQUEST_PRODUCTION = 'request production access (SES console → Account dashboard), a day or so ahead';

const sesProductionCheck: Check = {
  name: 'SES production access',
  needs: ['ses:GetAccount'],
  async run({ sesAccount, region }) {
    const { ProductionAccessEnabled, Details } = await sesAccount();
    if (ProductionAccessEnabled) return ok(`the account sends to anyone from ${region}`);
    const review = Details?.ReviewDetails;
    const says = `the account is in SES's sandbox in ${region}: it mails verified addresses only`;
    return review?.Status === 'PENDING'
      ? fail(`${says}; the request for production access (case ${review.CaseId}) is pending`, 'wait for it')
      : fail(says, REQUEST_PRODUCTION);
  },
};

const sesSendingCheck: Check = {
  name: 'SES sending',
  needs: ['ses:GetAccount'],
  async run({ sesAccount }) {
    const { SendingEnabled, EnforcementStatus = 'HEALTHY' } = await sesAccount();
    const says = `sending is ${SendingEnabled ? 'enabled' : 'paused'}, enforcement status ${EnforcementStatus}`;
    const reputation = 'see SES console → Reputation metrics, and the case AWS opened';
    if (!SendingEnabled || EnforcementStatus === 'SHUTDOWN') return fail(says, reputation);
    if (EnforcementStatus !== 'HEALTHY') return warn(says, reputation);
    return ok(says);
  },
};

const sesQuotaCheck: Check = {
  name: 'SES quota',
  needs: ['ses:GetAccount', 'dynamodb:Scan'],
  async run({ sesAccount, confirmedCount }) {
    const { SendQuota = {} } = await sesAccount();
    const { MaxSendRate = 0, Max24HourSend = 0, SentLast24Hours = 0 } = SendQuota;
    const confirmed = await confirmedCount();
    if (Max24HourSend < 0) return ok(`${figure(MaxSendRate)} a second, no quota a day`);
    const quota = `${figure(MaxSendRate)} a second, ${figure(Max24HourSend)} in 24 hours (${figure(SentLast24Hours)} sent in the last 24)`;
    const days = daysNeeded(confirmed, { max24HourSend: Max24HourSend, sentLast24Hours: SentLast24Hours });
    const people = `the ${confirmedPeople(confirmed)}`;
    const raise = 'ask for a higher quota (SES console → Account dashboard → Request a quota increase)';
    if (!Number.isFinite(days))
      return fail(`${quota}: nothing is left for the announcement after the confirmations’ reserve`, raise);
    if (days > 1)
      return warn(
        `${quota}: the announcement to ${people} takes ${plural(days, 'day')}, keeping ${figure(quotaReserve(Max24HourSend))} a day for confirmations`,
        `${raise}, or let it take the days`,
      );
    return ok(`${quota}: the announcement to ${people} fits in one day`);
  },
};

const identityCheck: Check = {
  name: 'SES identity',
  needs: ['ses:GetEmailIdentity'],
  async run({ identity }) {
    const { domain, VerifiedForSendingStatus, VerificationStatus = 'NOT_STARTED' } = await identity();
    if (VerifiedForSendingStatus) return ok(`${domain} is verified for sending`);
    return fail(
      `${domain} is not verified (${VerificationStatus})`,
      'publish its DKIM records (the DNS lines below); SES looks for them for 72 hours',
    );
  },
};

const DKIM_TODO: Record<string, string> = {
  PENDING: 'SES has not found its three CNAME records yet: publish them (DNS DKIM below)',
  FAILED: 'SES gave up looking for them: publish them, then SES console → Identities → the domain → Retry',
  TEMPORARY_FAILURE: 'SES could not read them for now and tries again: check the DNS DKIM line below',
  NOT_STARTED: 'SES has not started: deploy again',
};

const dkimCheck: Check = {
  name: 'SES DKIM',
  needs: ['ses:GetEmailIdentity'],
  async run({ identity }) {
    const { domain, DkimAttributes = {} } = await identity();
    const { Status = 'NOT_STARTED', SigningEnabled } = DkimAttributes;
    const says = `DKIM for ${domain} is ${Status}${SigningEnabled ? '' : ', signing off'}`;
    if (Status === 'SUCCESS' && SigningEnabled) return ok(says);
    return fail(says, DKIM_TODO[Status] ?? 'turn DKIM signing on for the identity, or deploy again');
  },
};

const mailFromCheck: Check = {
  name: 'SES MAIL FROM',
  needs: ['ses:GetEmailIdentity'],
  async run({ identity }) {
    const sender = await identity();
    const status = sender.MailFromAttributes?.MailFromDomainStatus ?? 'not set';
    const says = `the MAIL FROM domain ${mailFromOf(sender)} is ${status}`;
    if (status === 'SUCCESS') return ok(says);
    return mailFromFinding(sender)(
      `${says}: until it works SES sends with its own, so SPF does not align (DMARC passes on DKIM)`,
      'publish its MX and SPF records (the DNS lines below)',
    );
  },
};

const configurationSetCheck: Check = {
  name: 'SES configuration set',
  needs: ['ses:GetConfigurationSetEventDestinations'],
  async run({ stack, clients: { ses } }) {
    const name = resourceOf(stack, 'AWS::SES::ConfigurationSet');
    const { EventDestinations = [] } = await ses.send(
      new GetConfigurationSetEventDestinationsCommand({ ConfigurationSetName: name }),
    );
    const hearing = EventDestinations.find(
      ({ Enabled, MatchingEventTypes = [] }) =>
        Enabled && MatchingEventTypes.includes('BOUNCE') && MatchingEventTypes.includes('COMPLAINT'),
    );
    if (hearing) return ok(`${name} publishes ${hearing.MatchingEventTypes?.join(', ')} (${hearing.Name})`);
    return fail(
      `${name} publishes no bounces and complaints: addresses that bounce would be mailed again`,
      'deploy again (the stack adds the event destination)',
    );
  },
};

const alarmSubscriptionCheck: Check = {
  name: 'Alarm subscription',
  needs: ['sns:ListSubscriptionsByTopic'],
  async run({ stack, clients: { sns } }) {
    const TopicArn = outputOf(stack, 'AlarmTopicArn');
    let confirmed = 0;
    let pending = 0;
    for await (const page of paginateListSubscriptionsByTopic({ client: sns }, { TopicArn }))
      for (const { SubscriptionArn = '' } of page.Subscriptions ?? [])
        if (SubscriptionArn.startsWith('arn:')) confirmed++;
        else if (SubscriptionArn === 'PendingConfirmation') pending++;
    if (confirmed > 0) return ok(`${plural(confirmed, 'confirmed subscription')} to the alarm topic`);
    if (pending > 0)
      return fail(
        `no one hears the alarms: ${plural(pending, 'subscription')} await${pending === 1 ? 's' : ''} confirmation`,
        'open the mail from AWS Notifications and choose "Confirm subscription"',
      );
    return fail(
      'no one hears the alarms: the topic has no subscription',
      `deploy with -c alarmEmail=<address>, or subscribe one to ${TopicArn}`,
    );
  },
};

/** Lambda keeps this many of the account's concurrent executions unreserved, whatever is reserved. */
const UNRESERVED_MINIMUM = 100;

const concurrencyCheck: Check = {
  name: 'Lambda concurrency',
  needs: ['lambda:GetAccountSettings', 'lambda:GetFunctionConcurrency'],
  async run({ stack, clients: { lambda } }) {
    const { AccountLimit = {} } = await lambda.send(new GetAccountSettingsCommand({}));
    const { ConcurrentExecutions = 0, UnreservedConcurrentExecutions = ConcurrentExecutions } = AccountLimit;
    const reservations = await Promise.all(
      resourcesOf(stack, 'AWS::Lambda::Function').map((FunctionName) =>
        lambda.send(new GetFunctionConcurrencyCommand({ FunctionName })),
      ),
    );
    const reserved = reservations.reduce(
      (sum, { ReservedConcurrentExecutions = 0 }) => sum + ReservedConcurrentExecutions,
      0,
    );
    const says = `the account runs ${figure(ConcurrentExecutions)} at once (${figure(UnreservedConcurrentExecutions)} unreserved); this stack reserves ${figure(reserved)}`;
    const raise = 'ask for 1,000 (Service Quotas → AWS Lambda → Concurrent executions)';
    if (reserved > 0 && ConcurrentExecutions - reserved < UNRESERVED_MINIMUM)
      return fail(
        says,
        `Lambda keeps ${UNRESERVED_MINIMUM} unreserved: ${raise}, or deploy without -c apiReservedConcurrency`,
      );
    if (ConcurrentExecutions < UNRESERVED_MINIMUM)
      return warn(says, `a launch spike and the mailer share them: ${raise}`);
    return ok(says);
  },
};

const distributionCheck: Check = {
  name: 'CloudFront',
  needs: ['cloudfront:GetDistribution'],
  async run({ distribution }) {
    const { Id, Status, DomainName, DistributionConfig } = await distribution();
    const says = `${Id} (${DomainName}) is ${Status}${DistributionConfig?.Enabled ? '' : ', disabled'}`;
    if (Status === 'Deployed' && DistributionConfig?.Enabled) return ok(says);
    return fail(
      says,
      DistributionConfig?.Enabled
        ? 'wait for it to be Deployed, then run this again'
        : 'enable it, or deploy again',
    );
  },
};

export const ACCOUNT_CHECKS: Check[] = [
  stackCheck,
  sesProductionCheck,
  sesSendingCheck,
  sesQuotaCheck,
  identityCheck,
  dkimCheck,
  mailFromCheck,
  configurationSetCheck,
  alarmSubscriptionCheck,
  concurrencyCheck,
  distributionCheck,
];
