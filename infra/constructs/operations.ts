import { Duration, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IAlarm,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { LOCALES } from '#contract/locales';
import {
  DIMENSIONS,
  METRIC,
  METRIC_NAMESPACE,
  type MetricName,
  type Service,
} from '../../functions/telemetry/metrics';
import type { ConfirmApi } from './confirm-api';
import type { ConfirmationMailer } from './confirmation-mailer';
import type { WaitlistApi } from './waitlist-api';

export interface OperationsProps {
  waitlist: WaitlistApi;
  /** With confirmation by mail: the confirm API and the mailer, watched as well. */
  confirmApi?: ConfirmApi;
  mailer?: ConfirmationMailer;
  /** Who hears the alarms: an e-mail subscription to the alarm topic (confirmed from that mailbox). */
  alarmEmail?: string;
  /** Alarm when no one signs up for this long (off when undefined). */
  signupSilence?: Duration;
}

/** The metric the access log counts for each 429 the stage's throttle answers. */
export const THROTTLED_METRIC = 'Throttled';

const FIVE_MINUTES = Duration.minutes(5);

/**
 * What the operator watches: alarms on what breaks and what slows, sent to one SNS topic (and by mail when
 * an address is given), and a dashboard of signups, refusals, faults and latency. The figures are the
 * functions' own metrics, written in their log lines (functions/telemetry/metrics.ts), the API's and
 * Lambda's, and one metric filter on the API's access log for its 429s.
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
    const { waitlist, confirmApi, mailer } = props;

    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: 'Mandje alarms',
      enforceSSL: true,
    });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);

    const answering: Service[] = confirmApi ? ['waitlist', 'confirm'] : ['waitlist'];
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
      ...(confirmApi ? [['Confirm', confirmApi.handler] as [string, LambdaFunction]] : []),
      ...(mailer ? [['Mailer', mailer.handler] as [string, LambdaFunction]] : []),
    ];
    for (const [name, handler] of functions) {
      add(
        `${name}FunctionErrors`,
        new Alarm(this, `${name}FunctionErrorsAlarm`, {
          alarmDescription: [
            `The ${name.toLowerCase()} function crashed or timed out (a Lambda error, not an answer it chose).`,
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
            `Lambda refused to run the ${name.toLowerCase()} function: the account's concurrency is used up.`,
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
          'the dashboard: many joins means launch day, so raise the stage’s rate limit (infra/mandje-stack.ts);',
          'invalid requests from few sources mean a robot, which the throttle is there to hold.',
        ].join(' '),
        metric: throttled,
        threshold: 5,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    if (mailer) add('UnsentMail', mailer.unsentMailAlarm);

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
      graph(
        confirmApi ? 'Confirmations and mails' : 'Lambda errors',
        confirmApi
          ? [
              metric(METRIC.confirmed, 'confirm', 'Sum', hourly).with({ label: 'Confirmed' }),
              metric(METRIC.mailSent, 'mailer', 'Sum', hourly).with({ label: 'Mails sent' }),
              metric(METRIC.mailFailed, 'mailer', 'Sum', hourly).with({ label: 'Mails failed (retried)' }),
            ]
          : functions.map(([name, handler]) => handler.metricErrors({ label: name })),
      ),
    );

    const { region } = Stack.of(this);
    this.dashboardUrl = `https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#dashboards/dashboard/${this.dashboard.dashboardName}`;
  }
}
