import { type CloudWatchClient, paginateGetMetricData } from '@aws-sdk/client-cloudwatch';
import { LOCALES } from '#contract/locales';
import { SECONDS_PER_DAY } from '#contract/time';
import { VISITS_METRIC } from '#contract/visit-counting';
import type { VisitsByDay } from './visits-file';
import { WaitlistToolError } from './waitlist-tool-error';

const DAY_MS = SECONDS_PER_DAY * 1000;

/**
 * The visits CloudWatch counted (the access logs' metric filter, contract/visit-counting.ts) on each UTC day
 * from `firstDay` (YYYY-MM-DD) for `days` days, by language: the daily Sum of Visits, one query per
 * language. Days without data points are left out.
 */
export async function readVisitMetrics(
  client: CloudWatchClient,
  { firstDay, days }: { firstDay: string; days: number },
): Promise<VisitsByDay> {
  const start = new Date(`${firstDay}T00:00:00.000Z`);
  const queries = LOCALES.map((language) => ({
    // A query id must start with a lower-case letter.
    Id: `visits_${language}`,
    Label: language,
    MetricStat: {
      Metric: {
        Namespace: VISITS_METRIC.namespace,
        MetricName: VISITS_METRIC.name,
        Dimensions: [{ Name: VISITS_METRIC.dimension, Value: language }],
      },
      Period: SECONDS_PER_DAY,
      Stat: 'Sum',
    },
    ReturnData: true,
  }));
  const languageOf = new Map(queries.map((query, index) => [query.Id, LOCALES[index]]));
  const visits: VisitsByDay = {};
  try {
    for await (const page of paginateGetMetricData(
      { client },
      {
        MetricDataQueries: queries,
        StartTime: start,
        EndTime: new Date(start.getTime() + days * DAY_MS),
        ScanBy: 'TimestampAscending',
      },
    )) {
      for (const result of page.MetricDataResults ?? []) {
        const language = languageOf.get(result.Id ?? '');
        if (language === undefined) continue;
        result.Timestamps?.forEach((timestamp, index) => {
          const day = new Date(timestamp).toISOString().slice(0, 10);
          const count = Math.round(result.Values?.[index] ?? 0);
          const counts = visits[day] ?? {};
          counts[language] = (counts[language] ?? 0) + count;
          visits[day] = counts;
        });
      }
    }
  } catch (error) {
    // Reading the table worked, so the credentials are good: only this permission can be missing.
    if ((error as Error | undefined)?.name?.startsWith('AccessDenied'))
      throw new WaitlistToolError(
        `these AWS credentials may not read the ${VISITS_METRIC.name} metric (cloudwatch:GetMetricData)`,
      );
    throw error;
  }
  return visits;
}
