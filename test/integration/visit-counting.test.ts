/**
 * Visitors counted by the runner as on AWS: the home pages' beacon through the runner's HTTP, the waitlist
 * function's real handler, dynalite; the count read back as the operator's `stats` reads it.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VISIT_PATH } from '#contract/visit-counting';
import { ensureWaitlistTable, startLocalDynamoDB } from '../../local/local-dynamodb';
import {
  LOCAL_TABLE_NAME,
  LOCAL_VISITOR_TABLE_NAME,
  localDocumentClient,
  storeAddressFromEnvironment,
} from '../../local/local-store-client';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { visitsByDay, type WaitlistTable } from '../../operator/waitlist-store-access';
import { createSiteFixture } from './site-fixture';
import { postJoin, withConcurrency } from './waitlist-api';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:141.0) Gecko/20100101 Firefox/141.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 Version/18.5 Mobile Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const LIMIT = 20;

const today = () => new Date().toISOString().slice(0, 10);
const dataDir = mkdtempSync(join(tmpdir(), 'mandje-visits-'));
let runner: LocalRunner;
let table: WaitlistTable;

beforeAll(async () => {
  // A day long gone, as a runner stopped on it left it in the store, which has no time to live.
  const store = await startLocalDynamoDB(dataDir);
  await ensureWaitlistTable(store.endpoint);
  const seeding = localDocumentClient(store.endpoint);
  for (const Item of [
    { id: 'salt', day: '2026-01-05', salt: 'an-old-salt', expiresAt: 1_767_657_600 },
    { id: `nl:${'a'.repeat(64)}`, expiresAt: 1_767_657_600 },
  ])
    await seeding.send(new PutCommand({ TableName: LOCAL_VISITOR_TABLE_NAME, Item }));
  seeding.destroy();
  await store.close();
  // The per-client limit on posts as in production: the beacons must not spend it.
  runner = await startLocalRunner({
    port: 0,
    dataDir,
    distDir: createSiteFixture().distDir,
    clientPostsPerMinute: LIMIT,
  });
  const client = localDocumentClient(storeAddressFromEnvironment() ?? '');
  table = { client, tableName: LOCAL_TABLE_NAME, where: dataDir, close: async () => client.destroy() };
});

afterAll(async () => {
  await table?.close();
  await runner?.close();
});

/** What a home page's script sends once it has loaded: `navigator.sendBeacon` with no body. */
async function beacon(language: string, userAgent = FIREFOX): Promise<number> {
  const response = await fetch(new URL(`${VISIT_PATH}?lang=${language}`, runner.url), {
    method: 'POST',
    headers: { 'user-agent': userAgent },
  });
  await response.arrayBuffer();
  return response.status;
}
const visitsToday = async () => (await visitsByDay(table, [today()]))[today()] ?? {};

describe('the runner counts visitors, not requests', () => {
  it(`counts ${5 * LIMIT} page loads from one client as one visitor, without spending its signups or sending mail; another browser and language, no robot`, async () => {
    // The handler's log lines, one per beacon, kept here rather than printed.
    const logged: string[] = [];
    const write = vi
      .spyOn(process.stdout, 'write')
      .mockImplementation((line) => logged.push(String(line)) > 0);
    const statuses = await withConcurrency(
      8,
      Array.from({ length: 5 * LIMIT }, () => () => beacon('nl')),
    ).finally(() => write.mockRestore());
    // No IP address or user agent in the log either.
    expect(logged.join('\n')).toContain('"outcome":"seen"');
    expect(logged.join('\n')).not.toMatch(/127\.0\.0\.1|Firefox|Mozilla/);

    expect(new Set(statuses)).toEqual(new Set([204]));
    expect(await visitsToday()).toEqual({ nl: 1 });
    expect(readdirSync(runner.outboxDir)).toEqual([]);
    const signup = await postJoin(runner.url, { email: `visitor.${Date.now()}@example.nl`, language: 'nl' });
    expect(signup.status).toBe(201);

    // Another browser and the other language count; a robot and a page GET do not.
    for (let load = 0; load < 3; load++) {
      expect([await beacon('nl', IPHONE), await beacon('en'), await beacon('nl', GOOGLEBOT)]).toEqual([
        204, 204, 204,
      ]);
      expect((await fetch(new URL('/', runner.url), { headers: { 'user-agent': IPHONE } })).status).toBe(200);
    }
    expect(await visitsToday()).toEqual({ nl: 2, en: 1 });
    const refused = [
      await fetch(new URL(VISIT_PATH, runner.url), { method: 'POST' }),
      await fetch(new URL(`${VISIT_PATH}?lang=nl`, runner.url)),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([400, 405]);
  });

  it('keeps no IP address or user agent: a hash per visitor until the day ends, the day’s salt; an earlier day’s are gone', async () => {
    const items: Record<string, unknown>[] = [];
    for (const TableName of [LOCAL_VISITOR_TABLE_NAME, LOCAL_TABLE_NAME])
      for await (const page of paginateScan({ client: table.client }, { TableName }))
        items.push(...(page.Items ?? []));

    const stored = JSON.stringify(items);
    for (const kept of ['127.0.0.1', '::1', 'Mozilla', 'Firefox', 'iPhone', 'Googlebot', 'an-old-salt'])
      expect(stored).not.toContain(kept);
    const visitors = items.filter((item) => typeof item.id === 'string');
    expect(visitors.map((item) => String(item.id).replace(/[0-9a-f]{64}$/, '<hash>')).sort()).toEqual([
      'en:<hash>',
      'nl:<hash>',
      'nl:<hash>',
      'salt',
    ]);
    const endOfDay = Date.parse(`${today()}T00:00:00.000Z`) / 1000 + 86_400;
    for (const visitor of visitors) expect(visitor.expiresAt).toBe(endOfDay);
  });
});
