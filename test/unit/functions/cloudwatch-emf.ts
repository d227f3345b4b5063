// Reads a log line as CloudWatch Logs reads Embedded Metric Format, by its specification: a line that breaks
// a rule throws, with the rule; a valid one gives the data points CloudWatch would record.

/** CloudWatch's units: times, sizes, bits, their rates, Percent, Count, Count/Second and None. */
const UNITS =
  /^(Seconds|Microseconds|Milliseconds|(Kilo|Mega|Giga|Tera)?(Bytes|Bits)(\/Second)?|Percent|Count(\/Second)?|None)$/;

export interface DataPoint {
  namespace: string;
  name: string;
  unit: string;
  value: number;
  dimensions: Record<string, string>;
  timestamp: number;
}

function fail(rule: string): never {
  throw new Error(`Not Embedded Metric Format: ${rule}`);
}

export function readEmf(line: string): DataPoint[] {
  const root = JSON.parse(line) as Record<string, unknown>;
  if (typeof root !== 'object' || root === null || Array.isArray(root)) fail('the line is not a JSON object');
  const aws = root._aws as Record<string, unknown> | undefined;
  if (typeof aws !== 'object' || aws === null) fail('no _aws member');
  if (!Number.isInteger(aws.Timestamp)) fail('_aws.Timestamp is not milliseconds since the epoch');
  if (!Array.isArray(aws.CloudWatchMetrics)) fail('_aws.CloudWatchMetrics is not an array');
  const points: DataPoint[] = [];
  for (const directive of aws.CloudWatchMetrics as Record<string, unknown>[]) {
    const { Namespace, Dimensions, Metrics } = directive;
    if (typeof Namespace !== 'string' || Namespace.length < 1 || Namespace.length > 255)
      fail('a directive without a Namespace of 1 to 255 characters');
    if (!Array.isArray(Dimensions)) fail('Dimensions is not an array of dimension sets');
    if (!Array.isArray(Metrics) || Metrics.length > 100) fail('Metrics is not an array of at most 100');
    for (const set of Dimensions as unknown[]) {
      if (!Array.isArray(set) || set.length > 30) fail('a dimension set is not an array of at most 30 keys');
      for (const key of set)
        if (typeof key !== 'string' || typeof root[key] !== 'string')
          fail(`dimension ${String(key)} does not name a string member`);
    }
    for (const metric of Metrics as Record<string, unknown>[]) {
      const { Name, Unit } = metric;
      if (typeof Name !== 'string' || Name.length < 1 || Name.length > 1024) fail('a metric without a Name');
      if (Unit !== undefined && !UNITS.test(String(Unit))) fail(`unit ${String(Unit)} is not CloudWatch's`);
      const value = root[Name];
      if (typeof value !== 'number' || !Number.isFinite(value)) fail(`metric ${Name} does not name a number`);
      for (const set of Dimensions as string[][])
        points.push({
          namespace: Namespace,
          name: Name,
          unit: String(Unit ?? 'None'),
          value,
          dimensions: Object.fromEntries(set.map((key) => [key, String(root[key])])),
          timestamp: aws.Timestamp as number,
        });
    }
  }
  return points;
}

/** The data points as `Name{Dim=value,…}=value`, sorted, for compact assertions. */
export function pointsOf(line: string): string[] {
  return readEmf(line)
    .map(({ name, dimensions, value }) => {
      const dims = Object.entries(dimensions)
        .map(([key, dimension]) => `${key}=${dimension}`)
        .join(',');
      return `${name}{${dims}}=${name === 'Latency' ? '*' : value}`;
    })
    .sort();
}
