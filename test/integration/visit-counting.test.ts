import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { VISITS_FILE } from '../../local/visit-counter';
import { plainRequest } from './plain-http';
import { createSiteFixture } from './site-fixture';

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const today = () => new Date().toISOString().slice(0, 10);
const site = createSiteFixture();
let runner: LocalRunner | undefined;

afterEach(async () => {
  await runner?.close();
  runner = undefined;
});

const start = (dataDir: string) => startLocalRunner({ port: 0, dataDir, distDir: site.distDir });

async function get(path: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  if (!runner) throw new Error('no runner');
  return plainRequest(new URL(path, runner.url).href, {
    method: options.method ?? 'GET',
    headers: { 'user-agent': BROWSER, ...options.headers },
  });
}

/** Every kind of request: only the two page views of a person count. */
async function browseEverything() {
  const statuses = {
    home: (await get('/')).status,
    homeWithCampaign: (await get('/?utm_source=nieuwsbrief')).status,
    english: (await get('/en/')).status,
    asset: (await get(site.assetPath)).status,
    privacy: (await get('/privacy')).status,
    missing: (await get('/bestaat-niet')).status,
    englishWithoutSlash: (await get('/en')).status,
    robot: (await get('/', { headers: { 'user-agent': GOOGLEBOT } })).status,
    head: (await get('/en/', { method: 'HEAD' })).status,
  };
  const etag = String((await get('/en/')).headers.etag);
  const revalidated = (await get('/en/', { headers: { 'if-none-match': etag } })).status;
  return { ...statuses, revalidated };
}

const readVisits = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, VISITS_FILE), 'utf8'));

describe('the local runner counts visits', () => {
  it('counts GETs of / and /en/ answered with the page (200, or 304 to a returning browser), and nothing else', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-visits-'));
    runner = await start(dataDir);

    const statuses = await browseEverything();
    await runner.close();

    expect(statuses).toEqual({
      home: 200,
      homeWithCampaign: 200,
      english: 200,
      asset: 200,
      privacy: 200,
      missing: 404,
      englishWithoutSlash: 301,
      robot: 200,
      head: 200,
      revalidated: 304,
    });
    // nl: two homes; en: the page, and again for the ETag, and its 304.
    expect(readVisits(dataDir)).toEqual({ days: { [today()]: { nl: 2, en: 3 } } });
  });

  it('writes the file within a second or so while visits come in, before it is closed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-visits-'));
    runner = await start(dataDir);

    await get('/');
    let written: unknown;
    for (let tries = 0; tries < 30 && written === undefined; tries++) {
      await delay(100);
      try {
        written = readVisits(dataDir);
      } catch {}
    }

    expect(written).toEqual({ days: { [today()]: { nl: 1 } } });
  });

  it('keeps the counts across a restart, adding to what the file held', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-visits-'));
    writeFileSync(
      join(dataDir, VISITS_FILE),
      JSON.stringify({ days: { '2026-01-05': { nl: 4, en: 1 }, [today()]: { en: 10 } } }),
    );
    runner = await start(dataDir);
    await get('/');
    await get('/en/');
    await runner.close();

    runner = await start(dataDir);
    await get('/');
    await runner.close();

    expect(readVisits(dataDir)).toEqual({
      days: { '2026-01-05': { nl: 4, en: 1 }, [today()]: { nl: 2, en: 11 } },
    });
  });

  it('writes nothing but counts: no address, no user agent, no path', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-visits-'));
    runner = await start(dataDir);
    await get('/?utm_source=flyer', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    await runner.close();

    const text = readFileSync(join(dataDir, VISITS_FILE), 'utf8');
    expect(JSON.parse(text)).toEqual({ days: { [today()]: { nl: 1 } } });
    expect(text).not.toMatch(/127\.0\.0\.1|203\.0\.113|Mozilla|flyer/);
  });

  it('refuses to start on a damaged visits file rather than overwrite it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-visits-'));
    writeFileSync(join(dataDir, VISITS_FILE), '{"visits": 3}');

    await expect(start(dataDir)).rejects.toThrow(/is not a visits file/);
    expect(readFileSync(join(dataDir, VISITS_FILE), 'utf8')).toBe('{"visits": 3}');
  });
});
