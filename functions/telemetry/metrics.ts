// Metrics as CloudWatch Embedded Metric Format in the one log line each request or mail writes, never with
// an address, a token or a request body. Straight to stdout, whatever the log level: Lambda's JSON log format
// would wrap a `console` line in a `message` string, where CloudWatch no longer finds the metrics.
import { DIMENSIONS, METRIC, METRIC_NAMESPACE, type MetricName, type Service } from '#contract/metrics';
import type { FaultClass } from './fault-class';

export interface MetricLine {
  service: Service;
  message: string;
  level: 'INFO' | 'WARN' | 'ERROR';
  counts: Partial<Record<MetricName, number>>;
  latencyMs?: number;
  /** From a mail's request to its sending. */
  lagMs?: number;
  language?: string;
  faultClass?: FaultClass;
  fields: Record<string, string | number | undefined>;
  requestId?: string;
}

export function writeMetricLine(line: MetricLine): void {
  const now = new Date();
  const values: Record<string, number> = Object.fromEntries(
    Object.entries({ ...line.counts, [METRIC.latency]: line.latencyMs, [METRIC.mailLag]: line.lagMs }).filter(
      (entry): entry is [string, number] => entry[1] !== undefined,
    ),
  );
  const directive = (dimensions: string[], names: string[]) => ({
    Namespace: METRIC_NAMESPACE,
    Dimensions: [[DIMENSIONS.service, ...dimensions]],
    Metrics: names.map((Name) => ({
      Name,
      Unit: Name === METRIC.latency || Name === METRIC.mailLag ? 'Milliseconds' : 'Count',
    })),
  });
  const directives = [directive([], Object.keys(values))];
  const byLanguage = [METRIC.joined, METRIC.visits].filter((name) => values[name] !== undefined);
  const withLanguage = line.language !== undefined && byLanguage.length > 0;
  if (withLanguage) directives.push(directive([DIMENSIONS.language], byLanguage));
  if (line.faultClass !== undefined) {
    values[METRIC.faults] = 1;
    directives.push(directive([DIMENSIONS.faultClass], [METRIC.faults]));
  }
  const entry = {
    timestamp: now.toISOString(),
    level: line.level,
    message: line.message,
    ...(line.requestId ? { requestId: line.requestId } : {}),
    ...Object.fromEntries(Object.entries(line.fields).filter(([, value]) => value !== undefined)),
    [DIMENSIONS.service]: line.service,
    ...(withLanguage ? { [DIMENSIONS.language]: line.language } : {}),
    ...(line.faultClass !== undefined ? { [DIMENSIONS.faultClass]: line.faultClass } : {}),
    ...values,
    _aws: { Timestamp: now.getTime(), CloudWatchMetrics: directives },
  };
  process.stdout.write(`${JSON.stringify(entry)}\n`);
}
