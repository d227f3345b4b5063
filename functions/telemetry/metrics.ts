// Metrics as CloudWatch Embedded Metric Format in the one log line each request or mail writes.
// A line never holds an address, a token or a request body.
import { DIMENSIONS, METRIC, METRIC_NAMESPACE, type MetricName, type Service } from '#contract/metrics';
import type { FaultClass } from './fault-class';

const BY_LANGUAGE: MetricName[] = [METRIC.joined, METRIC.visits];

export interface MetricLine {
  service: Service;
  message: string;
  level: 'INFO' | 'WARN' | 'ERROR';
  counts: Partial<Record<MetricName, number>>;
  latencyMs?: number;
  /** From a mail's request to its sending. */
  lagMs?: number;
  /** Adds `Joined` or `Visits` by Language. */
  language?: string;
  /** Adds `Faults` by FaultClass. */
  faultClass?: FaultClass;
  /** Never personal data. */
  fields: Record<string, string | number | undefined>;
  requestId?: string;
  now?: Date;
}

/** Lambda's JSON log fields, the figures as top-level members, and `_aws` naming which are metrics. */
export function metricLine(line: MetricLine): Record<string, unknown> {
  const now = line.now ?? new Date();
  const counts = Object.entries(line.counts).filter(([, value]) => value !== undefined) as [string, number][];
  const values: Record<string, number> = Object.fromEntries(counts);
  const perService = counts.map(([name]) => ({ Name: name, Unit: 'Count' }));
  for (const [name, ms] of [
    [METRIC.latency, line.latencyMs],
    [METRIC.mailLag, line.lagMs],
  ] as const) {
    if (ms === undefined) continue;
    values[name] = ms;
    perService.push({ Name: name, Unit: 'Milliseconds' });
  }
  const directive = (dimensions: string[], metrics: { Name: string; Unit: string }[]) => ({
    Namespace: METRIC_NAMESPACE,
    Dimensions: [[DIMENSIONS.service, ...dimensions]],
    Metrics: metrics,
  });
  const directives = [directive([], perService)];
  const byLanguage = BY_LANGUAGE.filter((name) => values[name] !== undefined);
  const withLanguage = line.language !== undefined && byLanguage.length > 0;
  if (withLanguage)
    directives.push(
      directive(
        [DIMENSIONS.language],
        byLanguage.map((name) => ({ Name: name, Unit: 'Count' })),
      ),
    );
  if (line.faultClass !== undefined) {
    values[METRIC.faults] = 1;
    directives.push(directive([DIMENSIONS.faultClass], [{ Name: METRIC.faults, Unit: 'Count' }]));
  }
  const fields = Object.fromEntries(Object.entries(line.fields).filter(([, value]) => value !== undefined));
  return {
    timestamp: now.toISOString(),
    level: line.level,
    message: line.message,
    ...(line.requestId ? { requestId: line.requestId } : {}),
    ...fields,
    [DIMENSIONS.service]: line.service,
    ...(withLanguage ? { [DIMENSIONS.language]: line.language } : {}),
    ...(line.faultClass !== undefined ? { [DIMENSIONS.faultClass]: line.faultClass } : {}),
    ...values,
    _aws: { Timestamp: now.getTime(), CloudWatchMetrics: directives },
  };
}

// Straight to stdout, whatever the log level: Lambda's JSON log format would wrap a `console` line in a
// `message` string, where CloudWatch no longer finds the metrics.
export function writeMetricLine(line: MetricLine): void {
  process.stdout.write(`${JSON.stringify(metricLine(line))}\n`);
}
