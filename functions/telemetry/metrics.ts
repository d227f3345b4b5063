/**
 * The functions' metrics, written as CloudWatch Embedded Metric Format in the one log line each request
 * (or mail) already writes: CloudWatch Logs turns the line into metrics, with no call to CloudWatch and no
 * extra line. The names are in #contract/metrics, which the stack's alarms and dashboard read too.
 *
 * A line never holds an address, a token or a request body: only outcomes and figures.
 */
import { DIMENSIONS, METRIC, METRIC_NAMESPACE, type MetricName, type Service } from '#contract/metrics';
import type { FaultClass } from './fault-class';

type Level = 'INFO' | 'WARN' | 'ERROR';

/** The metrics also written by Language, when the line names one. */
const BY_LANGUAGE: MetricName[] = [METRIC.joined, METRIC.visits];

export interface MetricLine {
  service: Service;
  message: string;
  level: Level;
  /** Counts of this line's outcome, each usually 1. */
  counts: Partial<Record<MetricName, number>>;
  latencyMs?: number;
  /** A mail's lag: milliseconds from its request to its sending (MailLag). */
  lagMs?: number;
  /** The signup's or the visit's language: adds `Joined` or `Visits` by Language. */
  language?: string;
  /** The fault's class: adds `Faults` by FaultClass. */
  faultClass?: FaultClass;
  /** What else the line says: outcome, status, the error's name. Never personal data. */
  fields: Record<string, string | number | undefined>;
  /** For finding the request's other lines (API Gateway's request id, the Lambda invocation's). */
  requestId?: string;
  now?: Date;
}

/**
 * The line as CloudWatch reads it: the fields of Lambda's own JSON log format (timestamp, level, message,
 * requestId), the figures as top-level members, and `_aws` saying which members are metrics.
 */
export function metricLine(line: MetricLine): Record<string, unknown> {
  const now = line.now ?? new Date();
  const counts = Object.entries(line.counts).filter(([, value]) => value !== undefined) as [string, number][];
  const values: Record<string, number> = Object.fromEntries(counts);
  const perService = counts.map(([name]) => ({ Name: name, Unit: 'Count' }));
  if (line.latencyMs !== undefined) {
    values[METRIC.latency] = line.latencyMs;
    perService.push({ Name: METRIC.latency, Unit: 'Milliseconds' });
  }
  if (line.lagMs !== undefined) {
    values[METRIC.mailLag] = line.lagMs;
    perService.push({ Name: METRIC.mailLag, Unit: 'Milliseconds' });
  }
  const directives: {
    Namespace: string;
    Dimensions: string[][];
    Metrics: { Name: string; Unit: string }[];
  }[] = [{ Namespace: METRIC_NAMESPACE, Dimensions: [[DIMENSIONS.service]], Metrics: perService }];
  const byLanguage = BY_LANGUAGE.filter((name) => values[name] !== undefined);
  if (line.language !== undefined && byLanguage.length > 0)
    directives.push({
      Namespace: METRIC_NAMESPACE,
      Dimensions: [[DIMENSIONS.service, DIMENSIONS.language]],
      Metrics: byLanguage.map((name) => ({ Name: name, Unit: 'Count' })),
    });
  if (line.faultClass !== undefined) {
    values[METRIC.faults] = 1;
    directives.push({
      Namespace: METRIC_NAMESPACE,
      Dimensions: [[DIMENSIONS.service, DIMENSIONS.faultClass]],
      Metrics: [{ Name: METRIC.faults, Unit: 'Count' }],
    });
  }
  const fields = Object.fromEntries(Object.entries(line.fields).filter(([, value]) => value !== undefined));
  return {
    timestamp: now.toISOString(),
    level: line.level,
    message: line.message,
    ...(line.requestId ? { requestId: line.requestId } : {}),
    ...fields,
    [DIMENSIONS.service]: line.service,
    ...(line.language !== undefined && byLanguage.length > 0 ? { [DIMENSIONS.language]: line.language } : {}),
    ...(line.faultClass !== undefined ? { [DIMENSIONS.faultClass]: line.faultClass } : {}),
    ...values,
    _aws: { Timestamp: now.getTime(), CloudWatchMetrics: directives },
  };
}

/**
 * Writes the line straight to standard output, one JSON object per line. Lambda's JSON log format wraps
 * what goes through `console` in a `message` string, where CloudWatch would no longer find the metrics;
 * a line written to stdout is kept as it is. It is written whatever the function's log level: it carries
 * the metrics.
 */
export function writeMetricLine(line: MetricLine): void {
  process.stdout.write(`${JSON.stringify(metricLine(line))}\n`);
}
