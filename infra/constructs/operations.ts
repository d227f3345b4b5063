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
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { LOCALES, type Locale } from '#contract/locales';
import { LATE_MAIL_MINUTES } from '#contract/mail-pace';
import { DIMENSIONS, METRIC, METRIC_NAMESPACE, type MetricName, type Service } from '#contract/metrics';
import type { ConfirmApi } from './confirm-api';
import type { MailEvents } from './mail-events';
import type { Mailer } from './mailer';
import type { WaitlistApi } from './waitlist-api';

export interface OperationsProps {
  waitlist: WaitlistApi;
  confirmApi: ConfirmApi;
  /** The mailer: its queues and alarms. */
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

/** `MailEvents` as the README names the function: `mail-events`. */
const functionWords = (name: string) => name.replace(/(?<=[a-z])(?=[A-Z])/g, '-').toLowerCase();

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
    const { waitlist, confirmApi, mailer, mailEvents } = props;

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

    add(
      'Broken',
      new Alarm(this, 'PermanentFaultAlarm', {
        alarmDescription: [
          'Broken: a request failed in a way no retry fixes (access denied, a missing table, a request the store',
          'refuses, or a bug), and the visitor saw the error notice. First open the function logs and filter on',
          'level ERROR: the line names the fault class and the error. A deploy just before? Roll it back.',
        ].join(' '),
        metric: summed(METRIC.internal, 'Permanent faults'),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    const unavailable = summed(METRIC.unavailable, 'Unavailable');
    const requests = summed(METRIC.requests, 'Requests');
    add(
      'Busy',
      new Alarm(this, 'UnavailableAlarm', {
        alarmDescription: [
          'Busy: more than 5% of requests (at least 3) were answered "try again" in each of two 5-minute periods,',
          'because DynamoDB throttled, timed out, failed or could not be reached. The visitors may retry. First',
          'look at the dashboard’s faults by class: "throttled" on an on-demand table means a sudden spike that',
          'DynamoDB is adapting to; "network" or "timeout" for long, check the AWS Health Dashboard.',
        ].join(' '),
        metric: new MathExpression({
          expression: 'IF(u >= 3, 100 * u / MAX([r, u]), 0)',
          usingMetrics: { u: unavailable, r: requests },
          label: 'Unavailable answers (%)',
          period: FIVE_MINUTES,
        }),
        threshold: 5,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 2,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    const functions: [string, LambdaFunction][] = [
      ['Waitlist', waitlist.handler],
      ['Confirm', confirmApi.handler],
      ['MailRequests', mailer.requestHandler],
      ['Mailer', mailer.handler],
      ['MailEvents', mailEvents.handler],
    ];
    for (const [name, handler] of functions) {
      add(
        `${name}FunctionErrors`,
        new Alarm(this, `${name}FunctionErrorsAlarm`, {
          alarmDescription: [
            `The ${functionWords(name)} function crashed or timed out (a Lambda error, not an answer it chose).`,
            'Visitors got an error page from the API, or a mail waits for a retry. First read the function’s',
            'log around the alarm time for the error and its stack trace; a deploy just before? Roll it back.',
          ].join(' '),
          metric: handler.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
      add(
        `${name}FunctionThrottles`,
        new Alarm(this, `${name}FunctionThrottlesAlarm`, {
          alarmDescription: [
            `Lambda refused to run the ${functionWords(name)} function: the account's concurrency is used up.`,
            'Visitors got errors. First check the account’s concurrent executions in the Lambda console, and',
            'ask AWS for a higher limit if launch traffic needs it.',
          ].join(' '),
          metric: handler.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
    }

    const serverErrors = waitlist.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    add(
      'Api5xx',
      new Alarm(this, 'ApiServerErrorsAlarm', {
        alarmDescription: [
          'The API answered 5xx at least 5 times in 5 minutes: the functions’ own 503 and 500 answers, or API',
          'Gateway failing to reach them. Visitors saw the error notice. First look at the other alarms (busy,',
          'broken, function errors) to see which; if none is on, read the API access log for the status.',
        ].join(' '),
        metric: serverErrors,
        threshold: 5,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    const throttled = new MetricFilter(this, 'ThrottledRequests', {
      logGroup: waitlist.accessLogs,
      filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
      metricNamespace: METRIC_NAMESPACE,
      metricName: THROTTLED_METRIC,
      metricValue: '1',
    }).metric({ period: FIVE_MINUTES, statistic: 'Sum' });
    add(
      'Api429',
      new Alarm(this, 'ApiThrottledAlarm', {
        alarmDescription: [
          'The API’s throttle turned requests away (429) at least 5 times in 5 minutes: more signups a second',
          'than the stage lets through, or a robot. Visitors saw the error notice and may retry. First look at',
          'the dashboard: many joins means launch day, so raise the stage’s rate limit (-c apiRateLimit);',
          'invalid requests from few sources mean a robot, which the throttle is there to hold.',
        ].join(' '),
        metric: throttled,
        threshold: 5,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    for (const [name, alarm] of Object.entries(mailer.alarms)) add(name, alarm);
    add('UnhandledMailEvent', mailEvents.unhandledEventAlarm);

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
    add(
      'BounceRate',
      new Alarm(this, 'BounceRateAlarm', {
        alarmDescription: [
          `SES's bounce rate for the account reached ${REPUTATION_ALARMS.BounceRate.threshold * 100}%: AWS reviews`,
          'an account there and may pause its sending at 10%, and then no one can confirm. First look at the',
          "mail-events function's log and the dashboard's Bounced figure: many new signups with made-up",
          'addresses mean a signup flood (see the waitlist and the edge limit); hold back any announcement',
          'mail until the rate falls.',
        ].join(' '),
        metric: bounceRate,
        threshold: REPUTATION_ALARMS.BounceRate.threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        // No mail sent, no figure: nothing to worry about.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
    add(
      'ComplaintRate',
      new Alarm(this, 'ComplaintRateAlarm', {
        alarmDescription: [
          `SES's complaint rate for the account reached ${REPUTATION_ALARMS.ComplaintRate.threshold * 100}%: AWS`,
          'reviews an account there and may pause its sending at 0.5%. People marked the confirmation mail as',
          "spam: mail they did not ask for. First look at the mail-events function's log and the dashboard's",
          "Complained and MailLimited figures for a signup flood of other people's addresses; stop any",
          'announcement mail until it is understood.',
        ].join(' '),
        metric: complaintRate,
        threshold: REPUTATION_ALARMS.ComplaintRate.threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    if (props.signupSilence) {
      const hours = props.signupSilence.toHours();
      add(
        'SignupSilence',
        new Alarm(this, 'SignupSilenceAlarm', {
          alarmDescription: [
            `No one joined the waitlist in the last ${hours} hour(s). Either interest dropped, or signups fail`,
            'before they reach the function. First open the page and join with a test address; if that works,',
            'look at the dashboard for invalid requests and 429s.',
          ].join(' '),
          metric: metric(METRIC.joined, 'waitlist', 'Sum', props.signupSilence),
          threshold: 1,
          comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
          evaluationPeriods: 1,
          // No signup writes no data point at all: silence is what this alarm is for.
          treatMissingData: TreatMissingData.BREACHING,
        }),
      );
    }

    this.dashboard = new Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.days(7),
    });
    const hourly = Duration.hours(1);
    const graph = (title: string, left: IMetric[], options: { stacked?: boolean; width?: number } = {}) =>
      new GraphWidget({ title, left, width: options.width ?? 12, height: 6, stacked: options.stacked });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown:
          '# Mandje\nSignups, refusals, faults and latency of the waitlist; what each alarm means is in its description and in the README ("Operating it").',
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
   * read from the waitlist function's log lines with Logs Insights, never made metrics: a source is
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
