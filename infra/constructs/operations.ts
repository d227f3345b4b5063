import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IAlarm,
  type IMetric,
  LogQueryVisualizationType,
  LogQueryWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { LOCALES, type Locale } from '#contract/locales';
import { LATE_MAIL_MINUTES } from '#contract/mail-pace';
import { DIMENSIONS, METRIC, METRIC_NAMESPACE, type MetricName, type Service } from '#contract/metrics';
import type { MailEvents } from './mail-events';
import type { Mailer } from './mailer';
import type { WaitlistApi } from './waitlist-api';

export interface OperationsProps {
  waitlist: WaitlistApi;
  /** The mailer: its queues, and its functions' metrics. */
  mailer: Mailer;
  /** What SES said became of the mails, and the account's sending reputation. */
  mailEvents: MailEvents;
  /** The per-client limit at the edge (AWS WAF, in us-east-1): its web ACL's and rule's names. */
  clientRateLimit?: { webAclName: string; ruleName: string; region: string };
  /** Who hears the alarms: an e-mail subscription to the alarm topic (confirmed from that mailbox). */
  alarmEmail?: string;
  /** Alarm when no one signs up for this long (off when undefined). */
  signupSilence?: Duration;
}

/**
 * SES's account-wide reputation (AWS/SES, no dimensions), and where each alarm goes off: where AWS puts an
 * account under review, well before it may pause sending (10% bounces, 0.5% complaints).
 */
export const REPUTATION_ALARMS = {
  BounceRate: { metricName: 'Reputation.BounceRate', threshold: 0.05 },
  ComplaintRate: { metricName: 'Reputation.ComplaintRate', threshold: 0.001 },
} as const;

/** The metric the access log counts for each 429 the stage's throttle answers. */
export const THROTTLED_METRIC = 'Throttled';

const FIVE_MINUTES = Duration.minutes(5);

/**
 * The mail alarm's window: long enough that a failed mail with none sent means mail is failing, not a
 * quiet moment between two sends.
 */
const MAIL_PERIOD = Duration.minutes(15);

/**
 * A queue's oldest announcement mail this old means the announcement is stuck, with days left before SQS
 * would drop it (MAIL_QUEUE_RETENTION_DAYS). An announcement to many people at a low rate takes long by
 * itself (100,000 at 1 mail a second: 28 hours), so this is far above a slow send.
 */
export const BULK_MAIL_STUCK_DAYS = 3;

/** How far the table's stream may be behind in mail-requests before that is an alarm. */
const REQUESTS_BEHIND_MINUTES = 10;

/**
 * What the operator watches: alarms on what breaks and what slows, and on SES's reputation, sent to one SNS
 * topic (and by mail when an address is given), and a dashboard of signups, refusals, faults, latency and
 * what became of the mails, and the funnel: visits, signups, confirmations and conversion per day, and signups
 * by source. The figures are the functions' own metrics, written in their log lines
 * (functions/telemetry/metrics.ts), visitors among them (functions/visit), the API's and Lambda's, and one
 * metric filter on the API's access log for its 429s.
 */
export class Operations extends Construct {
  public readonly topic: Topic;
  public readonly dashboard: Dashboard;
  /** The dashboard in the CloudWatch console. */
  public readonly dashboardUrl: string;
  public readonly alarms: Alarm[] = [];
  /** By name, for tests and the README. */
  public readonly alarmsByName: Record<string, Alarm> = {};

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const { waitlist, mailer, mailEvents } = props;

    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: 'Mandje alarms',
      enforceSSL: true,
    });
    // A topic policy replaces SNS's default one, and enforceSSL's holds only a Deny: without this Allow
    // CloudWatch could not publish the alarms. Only this account's alarms may.
    const stack = Stack.of(this);
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);

    const answering: Service[] = ['waitlist', 'confirm'];
    const metric = (name: MetricName, service: Service, statistic = 'Sum', period = FIVE_MINUTES) =>
      new Metric({
        namespace: METRIC_NAMESPACE,
        metricName: name,
        dimensionsMap: { [DIMENSIONS.service]: service },
        statistic,
        period,
      });
    /** The sum over the answering functions of one metric, zero where a function wrote none. */
    const summed = (name: MetricName, label: string) => {
      // Ids unique per metric, as one expression may use two sums.
      const id = (service: Service) => `${name.toLowerCase()}_${service}`;
      return new MathExpression({
        expression: answering.map((service) => `FILL(${id(service)}, 0)`).join(' + '),
        usingMetrics: Object.fromEntries(answering.map((service) => [id(service), metric(name, service)])),
        label,
        period: FIVE_MINUTES,
      });
    };

    const add = (name: string, alarm: Alarm) => {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      this.alarms.push(alarm);
      this.alarmsByName[name] = alarm;
      return alarm;
    };

    /**
     * An alarm that goes off when any of its conditions holds in a period: each condition is a comparison of
     * the metrics named in `usingMetrics` (as `FILL(late, 0) >= 1`). Its description says what it means in
     * a line and where its runbook is: docs/operating.md, under the alarm's name.
     */
    const whenAny = (
      name: string,
      summary: string,
      period: Duration,
      usingMetrics: Record<string, IMetric>,
      conditions: string[],
    ) =>
      add(
        name,
        new Alarm(this, `${name}Alarm`, {
          alarmDescription: `${summary} First: the runbook, docs/operating.md#${name.toLowerCase()}.`,
          metric: new MathExpression({
            expression: conditions.map((condition) => `IF(${condition}, 1, 0)`).join(' + '),
            usingMetrics,
            label: `${name}: conditions that hold`,
            period,
          }),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          // No requests, no mail, no figure: nothing wrong.
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
    const lambdaErrors = (handler: LambdaFunction) =>
      handler.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' });
    const functions: Record<string, LambdaFunction> = {
      api: waitlist.handler,
      mailrequests: mailer.requestHandler,
      mailer: mailer.handler,
      mailevents: mailEvents.handler,
    };
    whenAny(
      'Broken',
      'Broken: a request failed in a way no retry fixes (a permanent fault), or a function crashed or timed out.',
      FIVE_MINUTES,
      {
        internal_waitlist: metric(METRIC.internal, 'waitlist'),
        internal_confirm: metric(METRIC.internal, 'confirm'),
        ...Object.fromEntries(
          Object.entries(functions).map(([id, handler]) => [`errors_${id}`, lambdaErrors(handler)]),
        ),
      },
      [
        `FILL(internal_waitlist, 0) + FILL(internal_confirm, 0) >= 1`,
        `${Object.keys(functions)
          .map((id) => `FILL(errors_${id}, 0)`)
          .join(' + ')} >= 1`,
      ],
    );

    const throttled = new MetricFilter(this, 'ThrottledRequests', {
      logGroup: waitlist.accessLogs,
      filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
      metricNamespace: METRIC_NAMESPACE,
      metricName: THROTTLED_METRIC,
      metricValue: '1',
    }).metric({ period: FIVE_MINUTES, statistic: 'Sum' });
    whenAny(
      'Busy',
      'Busy: over 5% of requests (3 at least) were answered "try again", Lambda refused to run a function, or the API turned 5 or more requests away (429).',
      FIVE_MINUTES,
      {
        unavailable: summed(METRIC.unavailable, 'Unavailable'),
        requests: summed(METRIC.requests, 'Requests'),
        throttles: LambdaFunction.metricAllThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
        throttled,
      },
      [
        'IF(unavailable >= 3, 100 * unavailable / MAX([requests, unavailable]), 0) > 5',
        'FILL(throttles, 0) >= 1',
        'FILL(throttled, 0) >= 5',
      ],
    );

    const mailerMetric = (name: MetricName) => metric(name, 'mailer', 'Sum', MAIL_PERIOD);
    const oldest = (queue: IQueue) =>
      queue.metricApproximateAgeOfOldestMessage({ period: MAIL_PERIOD, statistic: 'Maximum' });
    whenAny(
      'MailDelayed',
      `Mail is not leaving: a mail went out over ${LATE_MAIL_MINUTES} minutes late, mail failed with none sent, sending is paused by a set-up fault, a mail has waited too long on its queue, or mail requests are not being queued.`,
      MAIL_PERIOD,
      {
        late: mailerMetric(METRIC.mailLate),
        failed: mailerMetric(METRIC.mailFailed),
        sent: mailerMetric(METRIC.mailSent),
        paused: mailerMetric(METRIC.mailPaused),
        priority_age: oldest(mailer.queues.priority),
        bulk_age: oldest(mailer.queues.bulk),
        stream_age: mailer.requestHandler.metric('IteratorAge', {
          period: MAIL_PERIOD,
          statistic: 'Maximum',
        }),
      },
      [
        'FILL(late, 0) >= 1',
        'IF(FILL(sent, 0) == 0, FILL(failed, 0), 0) >= 1',
        'FILL(paused, 0) >= 1',
        `FILL(priority_age, 0) > ${LATE_MAIL_MINUTES * 60}`,
        `FILL(bulk_age, 0) > ${Duration.days(BULK_MAIL_STUCK_DAYS).toSeconds()}`,
        `FILL(stream_age, 0) >= ${Duration.minutes(REQUESTS_BEHIND_MINUTES).toMilliseconds()}`,
      ],
    );

    const waiting = (queue: IQueue) =>
      queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' });
    whenAny(
      'DeadLetters',
      'Something waits in a dead-letter queue: SES refused a mail for good, a mail request could not be queued, or an SES event could not be handled.',
      FIVE_MINUTES,
      {
        refused: metric(METRIC.mailRefused, 'mailer'),
        unqueued: waiting(mailer.requestsDeadLetterQueue),
        unhandled: waiting(mailEvents.deadLetterQueue),
      },
      ['FILL(refused, 0) + FILL(unqueued, 0) + FILL(unhandled, 0) >= 1'],
    );

    // SES writes its reputation a few times an hour while mail is sent; the highest of the hour counts.
    const reputation = (name: keyof typeof REPUTATION_ALARMS) =>
      new Metric({
        namespace: 'AWS/SES',
        metricName: REPUTATION_ALARMS[name].metricName,
        statistic: 'Maximum',
        period: Duration.hours(1),
      });
    const bounceRate = reputation('BounceRate');
    const complaintRate = reputation('ComplaintRate');
    whenAny(
      'Reputation',
      `SES's account-wide bounce rate reached ${REPUTATION_ALARMS.BounceRate.threshold * 100}% or its complaint rate ${REPUTATION_ALARMS.ComplaintRate.threshold * 100}%: AWS reviews an account there, and may pause its sending at 10% and 0.5%.`,
      Duration.hours(1),
      { bounces: bounceRate, complaints: complaintRate },
      [
        `FILL(bounces, 0) >= ${REPUTATION_ALARMS.BounceRate.threshold}`,
        `FILL(complaints, 0) >= ${REPUTATION_ALARMS.ComplaintRate.threshold}`,
      ],
    );

    if (props.signupSilence) {
      const hours = props.signupSilence.toHours();
      add(
        'SignupSilence',
        new Alarm(this, 'SignupSilenceAlarm', {
          alarmDescription: `No one joined the waitlist in the last ${hours} hour(s). First: the runbook, docs/operating.md#signupsilence.`,
          metric: metric(METRIC.joined, 'waitlist', 'Sum', props.signupSilence),
          threshold: 1,
          comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
          evaluationPeriods: 1,
          // No signup writes no data point at all: silence is what this alarm is for.
          treatMissingData: TreatMissingData.BREACHING,
        }),
      );
    }

    const serverErrors = waitlist.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    this.dashboard = new Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.days(7),
    });
    const hourly = Duration.hours(1);
    const graph = (title: string, left: IMetric[], options: { stacked?: boolean; width?: number } = {}) =>
      new GraphWidget({ title, left, width: options.width ?? 12, height: 6, stacked: options.stacked });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown:
          '# Mandje\nSignups, refusals, faults and latency of the waitlist; what each alarm means and what to do first is in docs/operating.md ("The alarms").',
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms as IAlarm[], width: 24, height: 4 }),
    );
    this.dashboard.addWidgets(...this.funnelWidgets(waitlist));
    this.dashboard.addWidgets(
      graph(
        'Signups per hour, by language',
        LOCALES.map(
          (language) =>
            new Metric({
              namespace: METRIC_NAMESPACE,
              metricName: METRIC.joined,
              dimensionsMap: { [DIMENSIONS.service]: 'waitlist', [DIMENSIONS.language]: language },
              statistic: 'Sum',
              period: hourly,
              label: language,
            }),
        ),
        { stacked: true },
      ),
      graph('Duplicates, invalid requests and robots per hour', [
        metric(METRIC.alreadyRegistered, 'waitlist', 'Sum', hourly).with({ label: 'Already registered' }),
        metric(METRIC.invalid, 'waitlist', 'Sum', hourly).with({ label: 'Invalid' }),
        metric(METRIC.honeypot, 'waitlist', 'Sum', hourly).with({ label: 'Robots (honeypot)' }),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Faults by class (unavailable and internal answers, failed mails)', [
        new MathExpression({
          expression: `SEARCH('{${METRIC_NAMESPACE},${DIMENSIONS.service},${DIMENSIONS.faultClass}} MetricName="${METRIC.faults}"', 'Sum', 300)`,
          label: '',
          period: FIVE_MINUTES,
        }),
      ]),
      graph(
        'Latency (ms), p50 and p99',
        answering.flatMap((service) => [
          metric(METRIC.latency, service, 'p50').with({ label: `${service} p50` }),
          metric(METRIC.latency, service, 'p99').with({ label: `${service} p99` }),
        ]),
      ),
    );
    this.dashboard.addWidgets(
      graph('Throttled by the API (429) and API 5xx', [
        throttled.with({ label: '429' }),
        serverErrors.with({ label: '5xx' }),
      ]),
      graph('Confirmations and mails', [
        metric(METRIC.confirmed, 'confirm', 'Sum', hourly).with({ label: 'Confirmed' }),
        metric(METRIC.mailSent, 'mailer', 'Sum', hourly).with({ label: 'Mails sent' }),
        metric(METRIC.mailFailed, 'mailer', 'Sum', hourly).with({ label: 'Mails failed (retried)' }),
      ]),
    );

    const { priority, bulk, deadLetterQueue } = mailer.queues;
    const lanes = [
      ['priority', priority],
      ['bulk', bulk],
    ] as const;
    this.dashboard.addWidgets(
      graph(`Mail lag (ms): from asked for to sent, p50 and p99; late past ${LATE_MAIL_MINUTES} minutes`, [
        metric(METRIC.mailLag, 'mailer', 'p50').with({ label: 'p50' }),
        metric(METRIC.mailLag, 'mailer', 'p99').with({ label: 'p99' }),
      ]),
      graph('Mails per 5 minutes: sent, late, throttled by SES (and sent again), refused for good', [
        metric(METRIC.mailSent, 'mailer').with({ label: 'Sent' }),
        metric(METRIC.mailLate, 'mailer').with({ label: 'Late' }),
        metric(METRIC.mailThrottled, 'mailer').with({ label: 'Throttled' }),
        metric(METRIC.mailRefused, 'mailer').with({ label: 'Refused' }),
      ]),
    );
    this.dashboard.addWidgets(
      graph('Mail waiting: messages in the queues, and in the dead-letter queue', [
        ...lanes.map(([lane, queue]) =>
          queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, label: lane }),
        ),
        deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: FIVE_MINUTES,
          label: 'dead-letter',
        }),
      ]),
      graph(
        'Oldest mail waiting (s), per queue',
        lanes.map(([lane, queue]) =>
          queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, label: lane }),
        ),
      ),
    );

    const edge = props.clientRateLimit;
    this.dashboard.addWidgets(
      graph(
        'Refused: another site’s posts and requests around the edge (403), posts past the edge limit (429)',
        [
          ...answering.map((service) =>
            metric(METRIC.forbidden, service, 'Sum', hourly).with({ label: `${service} 403` }),
          ),
          ...(edge
            ? [
                new MathExpression({
                  expression: `SEARCH('{AWS/WAFV2} MetricName="BlockedRequests" WebACL="${edge.webAclName}" Rule="${edge.ruleName}"', 'Sum', 3600)`,
                  label: 'edge 429',
                  period: hourly,
                  searchRegion: edge.region,
                }),
              ]
            : []),
        ],
      ),
      graph('Mails not sent: past the per-mailbox limit, or to a mailbox that bounced or complained', [
        metric(METRIC.mailLimited, 'mailer', 'Sum', hourly).with({ label: 'Limited' }),
        metric(METRIC.mailSuppressed, 'mailer', 'Sum', hourly).with({ label: 'Suppressed' }),
      ]),
    );
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'SES reputation (account): bounce and complaint rate, highest of each hour',
        left: [bounceRate.with({ label: 'Bounce rate' })],
        right: [complaintRate.with({ label: 'Complaint rate' })],
        leftAnnotations: [{ value: REPUTATION_ALARMS.BounceRate.threshold, label: 'Bounce alarm' }],
        rightAnnotations: [{ value: REPUTATION_ALARMS.ComplaintRate.threshold, label: 'Complaint alarm' }],
        width: 12,
        height: 6,
      }),
      graph('What SES said of the mails, per hour', [
        metric(METRIC.bounced, 'mail-events', 'Sum', hourly).with({ label: 'Bounced' }),
        metric(METRIC.complained, 'mail-events', 'Sum', hourly).with({ label: 'Complained' }),
        metric(METRIC.rejected, 'mail-events', 'Sum', hourly).with({ label: 'Rejected' }),
        metric(METRIC.deliveryDelayed, 'mail-events', 'Sum', hourly).with({ label: 'Delivery delayed' }),
      ]),
    );

    const { region } = Stack.of(this);
    this.dashboardUrl = `https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#dashboards/dashboard/${this.dashboard.dashboardName}`;
  }

  /**
   * Visits, signups and confirmations per day, the conversion between them, and signups by source. A visit
   * is a visitor counted once a day per language by the home pages' beacon (functions/visit). Sources are
   * read from the API function's log lines with Logs Insights, never made metrics: a source is
   * whatever a link says, and a metric per value would let anyone add metrics to the bill.
   */
  private funnelWidgets(waitlist: WaitlistApi) {
    const daily = Duration.days(1);
    const visits = (language: Locale) =>
      new Metric({
        namespace: METRIC_NAMESPACE,
        metricName: METRIC.visits,
        dimensionsMap: { [DIMENSIONS.service]: 'visit', [DIMENSIONS.language]: language },
        statistic: 'Sum',
        period: daily,
        label: `Visits ${language}`,
      });
    const signups = (language: Locale) =>
      new Metric({
        namespace: METRIC_NAMESPACE,
        metricName: METRIC.joined,
        dimensionsMap: { [DIMENSIONS.service]: 'waitlist', [DIMENSIONS.language]: language },
        statistic: 'Sum',
        period: daily,
        label: `Signups ${language}`,
      });
    // Confirmations are counted per function, not per language.
    const confirmed = new Metric({
      namespace: METRIC_NAMESPACE,
      metricName: METRIC.confirmed,
      dimensionsMap: { [DIMENSIONS.service]: 'confirm' },
      statistic: 'Sum',
      period: daily,
      label: 'Confirmed',
    });
    const ids = Object.fromEntries(
      LOCALES.flatMap((language) => [
        [`visits_${language}`, visits(language)],
        [`signups_${language}`, signups(language)],
      ]),
    ) as Record<string, Metric>;
    const allSignups = LOCALES.map((language) => `FILL(signups_${language}, 0)`).join(' + ');
    const conversion = [
      ...LOCALES.map(
        (language) =>
          new MathExpression({
            expression: `100 * FILL(signups_${language}, 0) / visits_${language}`,
            usingMetrics: ids,
            label: `Signups ÷ visits ${language} (%)`,
            period: daily,
          }),
      ),
      new MathExpression({
        expression: `IF(${allSignups} > 0, 100 * FILL(confirmed, 0) / (${allSignups}))`,
        usingMetrics: { ...ids, confirmed },
        label: 'Confirmed ÷ signups (%)',
        period: daily,
      }),
    ];
    return [
      new GraphWidget({
        title: 'Visits, signups and confirmations per day (UTC), by language',
        left: [...LOCALES.flatMap((language) => [visits(language), signups(language)]), confirmed],
        width: 12,
        height: 6,
      }),
      new GraphWidget({
        title: 'Conversion per day: signups per visit, confirmations per signup (%)',
        left: conversion,
        width: 12,
        height: 6,
      }),
      new LogQueryWidget({
        title: 'Signups by source (the dashboard’s time range)',
        logGroupNames: [waitlist.handler.logGroup.logGroupName],
        queryLines: [
          `filter ${METRIC.joined} > 0`,
          'stats count(*) as signups by source',
          'sort signups desc',
        ],
        view: LogQueryVisualizationType.TABLE,
        width: 24,
        height: 6,
      }),
    ];
  }
}
