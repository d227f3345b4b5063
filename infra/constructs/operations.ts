import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  LogQueryVisualizationType,
  LogQueryWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
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
  mailer: Mailer;
  mailEvents: MailEvents;
  /** The per-client limit at the edge (AWS WAF, in us-east-1): its web ACL's and rule's names. */
  clientRateLimit?: { webAclName: string; ruleName: string; region: string };
  alarmEmail?: string;
  /** Alarm when no one signs up for this long (off when undefined). */
  signupSilence?: Duration;
}

// Where AWS puts an SES account under review, well before it may pause sending (10% bounces, 0.5% complaints).
const BOUNCE_RATE_ALARM = 0.05;
const COMPLAINT_RATE_ALARM = 0.001;

/** The metric the access log counts for each 429 the stage's throttle answers. */
export const THROTTLED_METRIC = 'Throttled';

const FIVE_MINUTES = Duration.minutes(5);
// Long enough that a failed mail with none sent means mail is failing, not a quiet moment between sends.
const MAIL_PERIOD = Duration.minutes(15);
// Far above a slow announcement (100,000 at 1 mail a second: 28 hours), with days left before SQS drops it.
const BULK_MAIL_STUCK_DAYS = 3;
const REQUESTS_BEHIND_MINUTES = 10;

type MetricOptions = { statistic?: string; period?: Duration; label?: string; language?: Locale };

/**
 * The operator's alarms, sent to one SNS topic, and a dashboard; the figures are the functions' own metrics
 * (functions/telemetry/metrics.ts), the API's and Lambda's, and a filter on the access log for its 429s.
 */
export class Operations extends Construct {
  public readonly topic: Topic;
  public readonly dashboardUrl: string;
  public readonly alarmsByName: Record<string, Alarm> = {};

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const { waitlist, mailer, mailEvents } = props;
    const stack = Stack.of(this);

    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'Mandje alarms', enforceSSL: true });
    // A topic policy replaces SNS's default one, and enforceSSL's holds only a Deny: without this Allow
    // CloudWatch could not publish the alarms. Only this account's alarms may.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
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
    const hourly = Duration.hours(1);
    const daily = Duration.days(1);
    const metric = (
      metricName: MetricName,
      service: Service,
      { statistic = 'Sum', period = FIVE_MINUTES, label, language }: MetricOptions = {},
    ) =>
      new Metric({
        namespace: METRIC_NAMESPACE,
        metricName,
        dimensionsMap: {
          [DIMENSIONS.service]: service,
          ...(language ? { [DIMENSIONS.language]: language } : {}),
        },
        statistic,
        period,
        label,
      });
    /** A service's metrics by label, summed per period. */
    const labelled = (service: Service, metrics: Record<string, MetricName>, period = hourly) =>
      Object.entries(metrics).map(([label, name]) => metric(name, service, { period, label }));
    /** The sum over the answering functions of one metric, zero where a function wrote none. */
    const summed = (name: MetricName, label: string) => {
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
      this.alarmsByName[name] = alarm;
    };
    const runbook = (name: string) => `First: the runbook, docs/operating.md#${name.toLowerCase()}.`;
    /** An alarm that goes off when any of its conditions (comparisons of `usingMetrics`) holds in a period. */
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
          alarmDescription: `${summary} ${runbook(name)}`,
          metric: new MathExpression({
            expression: conditions.map((condition) => `IF(${condition}, 1, 0)`).join(' + '),
            usingMetrics,
            label: `${name}: conditions that hold`,
            period,
          }),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
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
          Object.entries(functions).map(([id, handler]) => [
            `errors_${id}`,
            handler.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
          ]),
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

    const mailerMetric = (name: MetricName) => metric(name, 'mailer', { period: MAIL_PERIOD });
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
    const reputation = (metricName: string) =>
      new Metric({ namespace: 'AWS/SES', metricName, statistic: 'Maximum', period: Duration.hours(1) });
    const bounceRate = reputation('Reputation.BounceRate');
    const complaintRate = reputation('Reputation.ComplaintRate');
    whenAny(
      'Reputation',
      `SES's account-wide bounce rate reached ${BOUNCE_RATE_ALARM * 100}% or its complaint rate ${COMPLAINT_RATE_ALARM * 100}%: AWS reviews an account there, and may pause its sending at 10% and 0.5%.`,
      Duration.hours(1),
      { bounces: bounceRate, complaints: complaintRate },
      [`FILL(bounces, 0) >= ${BOUNCE_RATE_ALARM}`, `FILL(complaints, 0) >= ${COMPLAINT_RATE_ALARM}`],
    );

    if (props.signupSilence)
      add(
        'SignupSilence',
        new Alarm(this, 'SignupSilenceAlarm', {
          alarmDescription: `No one joined the waitlist in the last ${props.signupSilence.toHours()} hour(s). ${runbook('SignupSilence')}`,
          metric: metric(METRIC.joined, 'waitlist', { period: props.signupSilence }),
          threshold: 1,
          comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
          evaluationPeriods: 1,
          // No signup writes no data point at all: silence is what this alarm is for.
          treatMissingData: TreatMissingData.BREACHING,
        }),
      );

    const dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.days(7) });
    const graph = (title: string, left: IMetric[], stacked?: boolean) =>
      new GraphWidget({ title, left, width: 12, height: 6, stacked });
    const { priority, bulk, deadLetterQueue } = mailer.queues;
    const lanes = Object.entries({ priority, bulk });
    const edge = props.clientRateLimit;
    dashboard.addWidgets(
      new TextWidget({
        markdown:
          '# Mandje\nSignups, refusals, faults and latency of the waitlist; what each alarm means and what to do first is in docs/operating.md ("The alarms").',
        width: 24,
        height: 2,
      }),
    );
    const alarms = Object.values(this.alarmsByName);
    dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms, width: 24, height: 4 }));
    // Visits, signups and confirmations per day and the conversion between them. A visit is a visitor counted
    // once a day per language by the home pages' beacon (functions/visit). Sources are read from the API's log
    // lines, never made metrics: a source is whatever a link says, and anyone could add metrics to the bill.
    const ids: Record<string, IMetric> = {};
    for (const l of LOCALES) {
      ids[`visits_${l}`] = metric(METRIC.visits, 'visit', {
        period: daily,
        language: l,
        label: `Visits ${l}`,
      });
      ids[`signups_${l}`] = metric(METRIC.joined, 'waitlist', {
        period: daily,
        language: l,
        label: `Signups ${l}`,
      });
    }
    const confirmed = metric(METRIC.confirmed, 'confirm', { period: daily, label: 'Confirmed' });
    const allSignups = LOCALES.map((l) => `FILL(signups_${l}, 0)`).join(' + ');
    dashboard.addWidgets(
      graph('Visits, signups and confirmations per day (UTC), by language', [
        ...Object.values(ids),
        confirmed,
      ]),
      graph('Conversion per day: signups per visit, confirmations per signup (%)', [
        ...LOCALES.map(
          (l) =>
            new MathExpression({
              expression: `100 * FILL(signups_${l}, 0) / visits_${l}`,
              usingMetrics: ids,
              label: `Signups ÷ visits ${l} (%)`,
              period: daily,
            }),
        ),
        new MathExpression({
          expression: `IF(${allSignups} > 0, 100 * FILL(confirmed, 0) / (${allSignups}))`,
          usingMetrics: { ...ids, confirmed },
          label: 'Confirmed ÷ signups (%)',
          period: daily,
        }),
      ]),
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
    );
    dashboard.addWidgets(
      graph(
        'Signups per hour, by language',
        LOCALES.map((language) =>
          metric(METRIC.joined, 'waitlist', { period: hourly, language, label: language }),
        ),
        true,
      ),
      graph(
        'Duplicates, invalid requests and robots per hour',
        labelled('waitlist', {
          'Already registered': METRIC.alreadyRegistered,
          Invalid: METRIC.invalid,
          'Robots (honeypot)': METRIC.honeypot,
        }),
      ),
    );
    dashboard.addWidgets(
      graph('Faults by class (unavailable and internal answers, failed mails)', [
        new MathExpression({
          expression: `SEARCH('{${METRIC_NAMESPACE},${DIMENSIONS.service},${DIMENSIONS.faultClass}} MetricName="${METRIC.faults}"', 'Sum', 300)`,
          label: '',
          period: FIVE_MINUTES,
        }),
      ]),
      graph(
        'Latency (ms), p50 and p99',
        answering.flatMap((service) =>
          ['p50', 'p99'].map((p) =>
            metric(METRIC.latency, service, { statistic: p, label: `${service} ${p}` }),
          ),
        ),
      ),
    );
    dashboard.addWidgets(
      graph('Throttled by the API (429) and API 5xx', [
        throttled.with({ label: '429' }),
        waitlist.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum', label: '5xx' }),
      ]),
      graph('Confirmations and mails', [
        ...labelled('confirm', { Confirmed: METRIC.confirmed }),
        ...labelled('mailer', { 'Mails sent': METRIC.mailSent, 'Mails failed (retried)': METRIC.mailFailed }),
      ]),
    );
    dashboard.addWidgets(
      graph(
        `Mail lag (ms): from asked for to sent, p50 and p99; late past ${LATE_MAIL_MINUTES} minutes`,
        ['p50', 'p99'].map((p) => metric(METRIC.mailLag, 'mailer', { statistic: p, label: p })),
      ),
      graph(
        'Mails per 5 minutes: sent, late, throttled by SES (and sent again), refused for good',
        labelled(
          'mailer',
          {
            Sent: METRIC.mailSent,
            Late: METRIC.mailLate,
            Throttled: METRIC.mailThrottled,
            Refused: METRIC.mailRefused,
          },
          FIVE_MINUTES,
        ),
      ),
    );
    dashboard.addWidgets(
      graph('Mail waiting: messages in the queues, and in the dead-letter queue', [
        ...lanes.map(([label, queue]) =>
          queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, label }),
        ),
        deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: FIVE_MINUTES,
          label: 'dead-letter',
        }),
      ]),
      graph(
        'Oldest mail waiting (s), per queue',
        lanes.map(([label, queue]) =>
          queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, label }),
        ),
      ),
    );
    dashboard.addWidgets(
      graph(
        'Refused: another site’s posts and requests around the edge (403), posts past the edge limit (429)',
        [
          ...answering.map((service) =>
            metric(METRIC.forbidden, service, { period: hourly, label: `${service} 403` }),
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
      graph(
        'Mails not sent: past the per-mailbox limit, or to a mailbox that bounced or complained',
        labelled('mailer', { Limited: METRIC.mailLimited, Suppressed: METRIC.mailSuppressed }),
      ),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'SES reputation (account): bounce and complaint rate, highest of each hour',
        left: [bounceRate.with({ label: 'Bounce rate' })],
        right: [complaintRate.with({ label: 'Complaint rate' })],
        leftAnnotations: [{ value: BOUNCE_RATE_ALARM, label: 'Bounce alarm' }],
        rightAnnotations: [{ value: COMPLAINT_RATE_ALARM, label: 'Complaint alarm' }],
        width: 12,
        height: 6,
      }),
      graph(
        'What SES said of the mails, per hour',
        labelled('mail-events', {
          Bounced: METRIC.bounced,
          Complained: METRIC.complained,
          Rejected: METRIC.rejected,
          'Delivery delayed': METRIC.deliveryDelayed,
        }),
      ),
    );

    const { region } = stack;
    this.dashboardUrl = `https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#dashboards/dashboard/${dashboard.dashboardName}`;
  }
}
