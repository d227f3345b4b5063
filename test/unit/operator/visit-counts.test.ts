/**
 * Where `stats` reads its visits: locally the runner's visits.json, with --table CloudWatch's daily sums
 * of the Visits metric per language.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudWatchClient, GetMetricDataCommand } from '@aws-sdk/client-cloudwatch';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseVisitsFile, readVisitsFile } from '../../../operator/visits-file';
import { readVisitMetrics } from '../../../operator/visits-metrics';
import { WaitlistToolError } from '../../../operator/waitlist-tool-error';

describe('the visits file', () => {
  it('reads the counts per day and language', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-visits-'));
    writeFileSync(
      join(dataDir, 'visits.json'),
      JSON.stringify({ days: { '2026-12-09': { nl: 3, en: 1 }, '2026-12-10': { nl: 12 } } }),
    );

    expect(await readVisitsFile(dataDir)).toEqual({
      '2026-12-09': { nl: 3, en: 1 },
      '2026-12-10': { nl: 12 },
    });
  });

  it('counts no visits when the runner has written none yet', async () => {
    expect(await readVisitsFile(mkdtempSync(join(tmpdir(), 'mandje-visits-')))).toEqual({});
  });

  it('leaves out what is not a count of a known language on a day', () => {
    const text = JSON.stringify({
      days: {
        '2026-12-10': { nl: 2, en: -1, de: 5, fr: 'x' },
        '2026-12-11': { en: 1.5 },
        yesterday: { nl: 4 },
        '2026-12-12': null,
      },
    });

    expect(parseVisitsFile(text)).toEqual({ '2026-12-10': { nl: 2 } });
  });

  it('says in one sentence when the file is not a visits file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-visits-'));
    for (const text of ['{"days":', '[]', '{"days":[1]}', 'null']) {
      writeFileSync(join(dataDir, 'visits.json'), text);
      await expect(readVisitsFile(dataDir)).rejects.toThrow(WaitlistToolError);
    }
  });
});

describe('the Visits metric in CloudWatch', () => {
  const cloudWatch = mockClient(CloudWatchClient);
  beforeEach(() => cloudWatch.reset());
  const client = new CloudWatchClient({ region: 'eu-west-1' });
  const day = (date: string) => new Date(`${date}T00:00:00.000Z`);

  it('asks for the daily Sum of Mandje/Visits per Language over whole UTC days', async () => {
    cloudWatch.on(GetMetricDataCommand).resolves({ MetricDataResults: [] });

    await readVisitMetrics(client, { firstDay: '2026-12-08', days: 3 });

    const calls = cloudWatch.commandCalls(GetMetricDataCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]?.args[0].input;
    expect(input?.StartTime).toEqual(day('2026-12-08'));
    expect(input?.EndTime).toEqual(day('2026-12-11'));
    expect(input?.MetricDataQueries?.map(({ MetricStat }) => MetricStat)).toEqual(
      ['nl', 'en'].map((language) => ({
        Metric: {
          Namespace: 'Mandje',
          MetricName: 'Visits',
          Dimensions: [{ Name: 'Language', Value: language }],
        },
        Period: 86_400,
        Stat: 'Sum',
      })),
    );
  });

  it('gives the counts by day and language, across pages', async () => {
    cloudWatch
      .on(GetMetricDataCommand)
      .resolvesOnce({
        MetricDataResults: [
          { Id: 'visits_nl', Timestamps: [day('2026-12-08'), day('2026-12-10')], Values: [12, 30] },
        ],
        NextToken: 'more',
      })
      .resolvesOnce({
        MetricDataResults: [{ Id: 'visits_en', Timestamps: [day('2026-12-10')], Values: [4] }],
      });

    expect(await readVisitMetrics(client, { firstDay: '2026-12-08', days: 3 })).toEqual({
      '2026-12-08': { nl: 12 },
      '2026-12-10': { nl: 30, en: 4 },
    });
    expect(cloudWatch.commandCalls(GetMetricDataCommand)[1]?.args[0].input.NextToken).toBe('more');
  });

  it('says which permission is missing when CloudWatch refuses', async () => {
    const refused = Object.assign(new Error('not authorized'), { name: 'AccessDeniedException' });
    cloudWatch.on(GetMetricDataCommand).rejects(refused);

    await expect(readVisitMetrics(client, { firstDay: '2026-12-08', days: 3 })).rejects.toThrow(
      /may not read the Visits metric \(cloudwatch:GetMetricData\)/,
    );
  });
});
