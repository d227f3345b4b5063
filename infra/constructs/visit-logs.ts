import { ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  CfnDelivery,
  CfnDeliveryDestination,
  CfnDeliverySource,
  CfnTransformer,
  FilterPattern,
  LogGroup,
  MetricFilter,
  RetentionDays,
} from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { LOCALES } from '#contract/locales';
import {
  ROBOT_USER_AGENT_TOKENS,
  VISIT_METHOD,
  VISIT_PAGES,
  VISIT_STATUSES,
  VISITS_METRIC,
} from '#contract/visit-counting';

/**
 * The fields CloudFront writes for each request (standard logging v2), and nothing else: what a visit is
 * told by (contract/visit-counting.ts), and when. Never the client's IP address (c-ip, x-forwarded-for), its
 * cookies, or the query string, which holds confirmation and leave tokens.
 */
export const ACCESS_LOG_FIELDS = [
  'date',
  'time',
  'cs-method',
  'cs-uri-stem',
  'sc-status',
  'cs(User-Agent)',
] as const;

/** CloudFront's field names, renamed to plain keys a filter pattern can name. */
const RENAMED = {
  'cs-method': 'method',
  'cs-uri-stem': 'path',
  'sc-status': 'status',
  'cs(User-Agent)': 'userAgent',
} as const satisfies Partial<Record<(typeof ACCESS_LOG_FIELDS)[number], string>>;

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface VisitLogsProps {
  /** The CloudFront distribution whose requests are logged; its delivery source must be in us-east-1. */
  distributionArn: string;
}

/**
 * The distribution's access logs in CloudWatch Logs (standard logging v2, a vended log delivery), kept 30
 * days, and the `Visits` metric counted from them by language. A transformer turns each line into what the
 * metric filter reads: plain keys, the user agent lower-cased (robot tokens match in any case, as locally),
 * the status a number, and `Language` (nl, en) from the page's path, the metric's one dimension, so it can
 * only ever take those two values.
 */
export class VisitLogs extends Construct {
  public readonly logGroup: LogGroup;
  public readonly deliverySource: CfnDeliverySource;
  public readonly deliveryDestination: CfnDeliveryDestination;
  public readonly delivery: CfnDelivery;
  public readonly transformer: CfnTransformer;
  public readonly visits: MetricFilter;

  constructor(scope: Construct, id: string, props: VisitLogsProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.logGroup = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.ONE_MONTH,
      // Request lines without addresses, useful for a month: nothing to keep once the stack is gone.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const logGroupArn = stack.formatArn({
      service: 'logs',
      resource: 'log-group',
      resourceName: this.logGroup.logGroupName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });

    // Written here, rather than left for CloudWatch Logs to add to an account-wide policy of its own: only
    // this account's log deliveries may write, and only to this group.
    const { policyDependable } = this.logGroup.addToResourcePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal('delivery.logs.amazonaws.com')],
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [`${logGroupArn}:log-stream:*`],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'logs',
              resource: 'delivery-source',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );

    // Names are unique per account and region: the stack's name keeps two deployments apart.
    this.deliverySource = new CfnDeliverySource(this, 'Source', {
      name: `${stack.stackName}-distribution`,
      logType: 'ACCESS_LOGS',
      resourceArn: props.distributionArn,
    });
    this.deliveryDestination = new CfnDeliveryDestination(this, 'Destination', {
      name: `${stack.stackName}-access-logs`,
      destinationResourceArn: logGroupArn,
      outputFormat: 'json',
    });
    this.delivery = new CfnDelivery(this, 'Delivery', {
      deliverySourceName: this.deliverySource.name,
      deliveryDestinationArn: this.deliveryDestination.attrArn,
      recordFields: [...ACCESS_LOG_FIELDS],
    });
    // The source is named, not referenced, and the group must let the delivery write before it starts.
    this.delivery.node.addDependency(this.deliverySource);
    if (policyDependable) this.delivery.node.addDependency(policyDependable);

    this.transformer = new CfnTransformer(this, 'Transformer', {
      logGroupIdentifier: this.logGroup.logGroupName,
      transformerConfig: [
        { parseJson: {} },
        {
          renameKeys: { entries: Object.entries(RENAMED).map(([key, renameTo]) => ({ key, renameTo })) },
        },
        { copyValue: { entries: [{ source: RENAMED['cs-uri-stem'], target: VISITS_METRIC.dimension }] } },
        { lowerCaseString: { withKeys: [RENAMED['cs(User-Agent)']] } },
        {
          substituteString: {
            entries: LOCALES.map((language) => ({
              source: VISITS_METRIC.dimension,
              from: `^${escapeRegex(VISIT_PAGES[language])}$`,
              to: language,
            })),
          },
        },
        { typeConverter: { entries: [{ key: RENAMED['sc-status'], type: 'integer' }] } },
      ],
    });

    const field = (name: string) => `$.${name}`;
    this.visits = new MetricFilter(this, 'Visits', {
      logGroup: this.logGroup,
      applyOnTransformedLogs: true,
      filterPattern: FilterPattern.all(
        FilterPattern.stringValue(field(RENAMED['cs-method']), '=', VISIT_METHOD),
        FilterPattern.any(
          ...LOCALES.map((language) =>
            FilterPattern.stringValue(field(VISITS_METRIC.dimension), '=', language),
          ),
        ),
        FilterPattern.any(
          ...VISIT_STATUSES.map((status) =>
            FilterPattern.numberValue(field(RENAMED['sc-status']), '=', status),
          ),
        ),
        ...ROBOT_USER_AGENT_TOKENS.map((token) =>
          FilterPattern.stringValue(field(RENAMED['cs(User-Agent)']), '!=', `*${token}*`),
        ),
      ),
      metricNamespace: VISITS_METRIC.namespace,
      metricName: VISITS_METRIC.name,
      metricValue: '1',
      dimensions: { [VISITS_METRIC.dimension]: field(VISITS_METRIC.dimension) },
    });
    // The filter reads the transformed lines, which exist once the transformer does.
    this.visits.node.addDependency(this.transformer);
  }
}
