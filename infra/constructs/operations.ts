import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
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
  alarmEmail?: string;
  signupSilenceHours?: number;
}

// Where AWS puts an SES account under review, well before it may pause sending (10% bounces, 0.5% complaints).
const BOUNCE_RATE_ALARM = 0.05;
const COMPLAINT_RATE_ALARM = 0.001;

/** The operator's alarms, to one SNS topic, and a dashboard of the alarms, the funnel and the mails. */
export class Operations extends Construct {
  public readonly topic: Topic;
  public readonly dashboardUrl: string;
  public readonly alarmsByName: Record<string, cloudwatch.Alarm> = {};

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const { waitlist, mailer, mailEvents } = props;
    const stack = Stack.of(this);

    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'Mandje alarms', enforceSSL: true });
    // enforceSSL's policy replaces SNS's default one: without this Allow CloudWatch could not publish.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': `arn:${stack.partition}:cloudwatch:${stack.region}:${stack.account}:alarm:*`,
          },
        },
      }),
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);

    const metric = (name: MetricName, service: Service, period?: Duration, label?: string, locale?: Locale) =>
      new cloudwatch.Metric({
        namespace: METRIC_NAMESPACE,
        metricName: name,
        dimensionsMap: { [DIMENSIONS.service]: service, ...(locale && { [DIMENSIONS.language]: locale }) },
        statistic: 'Sum',
        period,
        label,
      });

    const { ComparisonOperator, TreatMissingData } = cloudwatch;
    // Every alarm compares with 1: conditions that hold, or (below) the signups of a silent spell.
    const alarm = (name: string, summary: string, metric: cloudwatch.IMetric, below = false) => {
      this.alarmsByName[name] = new cloudwatch.Alarm(this, `${name}Alarm`, {
        metric,
        threshold: 1,
        evaluationPeriods: 1,
        alarmDescription: `${summary} First: the runbook, docs/operating.md#${name.toLowerCase()}.`,
        comparisonOperator: below
          ? ComparisonOperator.LESS_THAN_THRESHOLD
          : ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        // No signup writes no data point at all: silence is what the signup alarm is for.
        treatMissingData: below ? TreatMissingData.BREACHING : TreatMissingData.NOT_BREACHING,
      });
      this.alarmsByName[name].addAlarmAction(action);
      this.alarmsByName[name].addOkAction(action);
    };
    // Goes off when any of its conditions holds in a period, which is also its metrics' period.
    const whenAny = (
      name: string,
      summary: string,
      usingMetrics: Record<string, cloudwatch.IMetric>,
      conditions: string[],
      period?: Duration,
    ) =>
      alarm(
        name,
        summary,
        new cloudwatch.MathExpression({
          expression: conditions.map((condition) => `IF(${condition}, 1, 0)`).join(' + '),
          usingMetrics,
          label: `${name}: conditions that hold`,
          period,
        }),
      );
    whenAny(
      'Broken',
      'Broken: a request failed in a way no retry fixes (a permanent fault), or a function crashed or timed out.',
      {
        internal_waitlist: metric(METRIC.internal, 'waitlist'),
        internal_confirm: metric(METRIC.internal, 'confirm'),
        errors_api: waitlist.handler.metricErrors(),
        errors_mailrequests: mailer.requestHandler.metricErrors(),
        errors_mailer: mailer.handler.metricErrors(),
        errors_mailevents: mailEvents.handler.metricErrors(),
      },
      [
        'FILL(internal_waitlist, 0) + FILL(internal_confirm, 0) >= 1',
        'FILL(errors_api, 0) + FILL(errors_mailrequests, 0) + FILL(errors_mailer, 0) + FILL(errors_mailevents, 0) >= 1',
      ],
    );

    const summed = (name: MetricName, label: string) => {
      const services: Service[] = ['waitlist', 'confirm'];
      const id = (service: Service) => `${name.toLowerCase()}_${service}`;
      return new cloudwatch.MathExpression({
        expression: services.map((service) => `FILL(${id(service)}, 0)`).join(' + '),
        usingMetrics: Object.fromEntries(services.map((service) => [id(service), metric(name, service)])),
        label,
      });
    };
    whenAny(
      'Busy',
      'Busy: over 5% of requests (3 at least) were answered "try again", Lambda refused to run a function, or the API turned 5 or more requests away (429).',
      {
        unavailable: summed(METRIC.unavailable, 'Unavailable'),
        requests: summed(METRIC.requests, 'Requests'),
        throttles: LambdaFunction.metricAllThrottles(),
        throttled: new MetricFilter(this, 'ThrottledRequests', {
          logGroup: waitlist.accessLogs,
          filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
          metricNamespace: METRIC_NAMESPACE,
          metricName: 'Throttled',
          metricValue: '1',
        }).metric({ statistic: 'Sum' }),
      },
      [
        'IF(unavailable >= 3, 100 * unavailable / MAX([requests, unavailable]), 0) > 5',
        'FILL(throttles, 0) >= 1',
        'FILL(throttled, 0) >= 5',
      ],
    );

    whenAny(
      'MailDelayed',
      `Mail is not leaving: a mail went out over ${LATE_MAIL_MINUTES} minutes late, mail failed with none sent, sending is paused by a set-up fault, a mail has waited too long on its queue, or mail requests are not being queued.`,
      {
        late: metric(METRIC.mailLate, 'mailer'),
        failed: metric(METRIC.mailFailed, 'mailer'),
        sent: metric(METRIC.mailSent, 'mailer'),
        paused: metric(METRIC.mailPaused, 'mailer'),
        priority_age: mailer.queues.priority.metricApproximateAgeOfOldestMessage(),
        bulk_age: mailer.queues.bulk.metricApproximateAgeOfOldestMessage(),
        stream_age: mailer.requestHandler.metric('IteratorAge', { statistic: 'Maximum' }),
      },
      [
        'FILL(late, 0) >= 1',
        'IF(FILL(sent, 0) == 0, FILL(failed, 0), 0) >= 1',
        'FILL(paused, 0) >= 1',
        `FILL(priority_age, 0) > ${LATE_MAIL_MINUTES * 60}`,
        // Far above a slow announcement (100,000 at 1 mail a second: 28 hours), with days left before SQS drops it.
        `FILL(bulk_age, 0) > ${Duration.days(3).toSeconds()}`,
        `FILL(stream_age, 0) >= ${Duration.minutes(10).toMilliseconds()}`,
      ],
      // Long enough that a failed mail with none sent means mail is failing, not a quiet moment between sends.
      Duration.minutes(15),
    );

    whenAny(
      'DeadLetters',
      'Something waits in a dead-letter queue: SES refused a mail for good, a mail request could not be queued, or an SES event could not be handled.',
      {
        refused: metric(METRIC.mailRefused, 'mailer'),
        unqueued: mailer.requestsDeadLetterQueue.metricApproximateNumberOfMessagesVisible(),
        unhandled: mailEvents.deadLetterQueue.metricApproximateNumberOfMessagesVisible(),
      },
      ['FILL(refused, 0) + FILL(unqueued, 0) + FILL(unhandled, 0) >= 1'],
    );

    const hourly = Duration.hours(1);
    // Two signups at least: a lone one in an hour's last second is queued in the next hour.
    whenAny(
      'Unmailed',
      'Unmailed: people joined in the last hour, two at least, and not one mail was queued for them: the table’s stream, its filter or mail-requests is not asking for their mails.',
      { joined: metric(METRIC.joined, 'waitlist'), queued: metric(METRIC.mailQueued, 'mail-requests') },
      ['IF(FILL(queued, 0) == 0, FILL(joined, 0), 0) >= 2'],
      hourly,
    );
    const reputation = (metricName: string) =>
      new cloudwatch.Metric({ namespace: 'AWS/SES', metricName, statistic: 'Maximum' });
    whenAny(
      'Reputation',
      `SES's account-wide bounce rate reached ${BOUNCE_RATE_ALARM * 100}% or its complaint rate ${COMPLAINT_RATE_ALARM * 100}%: AWS reviews an account there, and may pause its sending at 10% and 0.5%.`,
      { bounces: reputation('Reputation.BounceRate'), complaints: reputation('Reputation.ComplaintRate') },
      [`FILL(bounces, 0) >= ${BOUNCE_RATE_ALARM}`, `FILL(complaints, 0) >= ${COMPLAINT_RATE_ALARM}`],
      hourly,
    );

    if (props.signupSilenceHours)
      alarm(
        'SignupSilence',
        `No one joined the waitlist in the last ${props.signupSilenceHours} hour(s).`,
        metric(METRIC.joined, 'waitlist', Duration.hours(props.signupSilenceHours)),
        true,
      );

    const daily = Duration.days(1);
    const funnel = Object.fromEntries(
      LOCALES.flatMap((language) => [
        [`visits_${language}`, metric(METRIC.visits, 'visit', daily, `Visits ${language}`, language)],
        [`signups_${language}`, metric(METRIC.joined, 'waitlist', daily, `Signups ${language}`, language)],
      ]),
    );
    const confirmed = metric(METRIC.confirmed, 'confirm', daily, 'Confirmed');
    const allSignups = LOCALES.map((language) => `FILL(signups_${language}, 0)`).join(' + ');
    const graph = (title: string, left: cloudwatch.IMetric[]) =>
      new cloudwatch.GraphWidget({ title, left, width: 12, height: 6 });
    const alarms = Object.values(this.alarmsByName);
    const dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { defaultInterval: Duration.days(7) });
    dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms, width: 24, height: 4 }),
      graph('Visits, signups and confirmations per day (UTC), by language', [
        ...Object.values(funnel),
        confirmed,
      ]),
      graph('Conversion per day: signups per visit, confirmations per signup (%)', [
        ...LOCALES.map(
          (language) =>
            new cloudwatch.MathExpression({
              expression: `100 * FILL(signups_${language}, 0) / visits_${language}`,
              usingMetrics: funnel,
              label: `Signups ÷ visits ${language} (%)`,
              period: daily,
            }),
        ),
        new cloudwatch.MathExpression({
          expression: `IF(${allSignups} > 0, 100 * FILL(confirmed, 0) / (${allSignups}))`,
          usingMetrics: { ...funnel, confirmed },
          label: 'Confirmed ÷ signups (%)',
          period: daily,
        }),
      ]),
      // Sources from the API's log lines, never metrics: anyone could add metrics to the bill.
      new cloudwatch.LogQueryWidget({
        title: 'Signups by source (the dashboard’s time range)',
        logGroupNames: [waitlist.handler.logGroup.logGroupName],
        queryLines: [
          `filter ${METRIC.joined} > 0`,
          'stats count(*) as signups by source',
          'sort signups desc',
        ],
        view: cloudwatch.LogQueryVisualizationType.TABLE,
        width: 12,
        height: 6,
      }),
      graph('What became of the mails, per hour', [
        metric(METRIC.mailSent, 'mailer', hourly, 'Sent'),
        metric(METRIC.mailFailed, 'mailer', hourly, 'Failed (retried)'),
        metric(METRIC.bounced, 'mail-events', hourly, 'Bounced'),
        metric(METRIC.complained, 'mail-events', hourly, 'Complained'),
      ]),
    );

    this.dashboardUrl = `https://${stack.region}.console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards/dashboard/${dashboard.dashboardName}`;
  }
}
