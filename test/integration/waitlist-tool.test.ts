import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { visitsCounterKey } from '#contract/visit-counting';
import { mailboxHashOf } from '../../functions/store/mailbox';
import { ensureWaitlistTable, startLocalDynamoDB } from '../../local/local-dynamodb';
import { LOCAL_TABLE_NAME, localDocumentClient } from '../../local/local-store-client';
import { killRunnerChildren, startRunnerChild } from './runner-child';
import { postJoin } from './waitlist-api';

const repoRoot = resolve(import.meta.dirname, '../..');

afterEach(killRunnerChildren);

/** Runs `npm run waitlist -- ...args` as the operator would, and returns what it printed and its exit code. */
async function waitlistTool(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'operator/waitlist-tool.ts', ...args],
      { cwd: repoRoot, env: { ...process.env, ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

const CSV_HEADER =
  'email,emailAsEntered,language,status,createdAt,consentVersion,confirmedAt,confirmedConsentVersion';

/** What `count` prints: each status, then the total, then how many left. */
const counted = ({ confirmed = 0, pending = 0, left = 0 }) =>
  [
    `confirmed   ${confirmed}`,
    `pending     ${pending}`,
    `total       ${confirmed + pending}`,
    `left        ${left}`,
    '',
  ].join('\n');
const csvLines = (csv: string) => csv.split('\r\n').filter((line) => line !== '');

/** Addresses the email rule allows that a spreadsheet would read as formulas. */
const SIGNUPS = [
  { email: 'Ann.de.Vries@Example.nl', language: 'nl' },
  { email: '=cmd@example.nl', language: 'en' },
  { email: '+31-6@example.nl', language: 'nl' },
] as const;

async function joinAll(url: string): Promise<void> {
  for (const signup of SIGNUPS) expect((await postJoin(url, signup)).status).toBe(201);
}

/** Writes records straight into the local store in `dataDir`, as no runner would: older shapes, set times. */
async function seedStore(dataDir: string, items: Record<string, unknown>[]): Promise<void> {
  const store = await startLocalDynamoDB(dataDir);
  const client = localDocumentClient(store.endpoint);
  try {
    await ensureWaitlistTable(store.endpoint);
    for (const item of items) await client.send(new PutCommand({ TableName: LOCAL_TABLE_NAME, Item: item }));
  } finally {
    client.destroy();
    await store.close();
  }
}

/** A funnel row's figures: visits, signups, confirmed, then the two rates as printed. */
const FUNNEL = String.raw`(\d+) +(\d+) +(\d+) +(\S+) +(\S+)`;

/** The funnel `stats` prints per day: the signups' bar and count, and the whole row's figures, by date. */
const chartOf = (stdout: string) =>
  new Map(
    [...stdout.matchAll(new RegExp(String.raw`^(\d{4}-\d{2}-\d{2}) {2}([█▉▊▋▌▍▎▏]*) +${FUNNEL}$`, 'gm'))].map(
      ([, day, bar, visits, signups, confirmed, signupRate, confirmRate]) => [
        day,
        {
          bar: bar?.length,
          count: Number(signups),
          row: [Number(visits), Number(signups), Number(confirmed), signupRate, confirmRate],
        },
      ],
    ),
  );

/** The funnel's row for the whole window: visits, signups, confirmed and the two rates. */
const windowOf = (stdout: string) => {
  const [, days, ...figures] = new RegExp(String.raw`^last (\d+) days? +${FUNNEL}$`, 'm').exec(stdout) ?? [];
  return { days: Number(days), row: figures.map((figure, index) => (index < 3 ? Number(figure) : figure)) };
};

describe('npm run waitlist on the local store', () => {
  it('counts, exports and forgets through the running store while a runner has the folder open', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const runner = await startRunnerChild(dataDir);
    await joinAll(runner.url);
    const options = ['--data-dir', dataDir];

    expect(await waitlistTool(['count', ...options])).toMatchObject({
      code: 0,
      stdout: counted({ pending: 3 }),
    });

    const exported = await waitlistTool(['export', ...options]);
    expect(exported.code).toBe(0);
    const [header, ...rows] = csvLines(exported.stdout);
    expect(header).toBe(CSV_HEADER);
    // Formula-like cells are quoted as text; rows come oldest first.
    expect(rows.map((row) => row.split(',').slice(0, 4)).sort()).toEqual(
      [
        ['ann.de.vries@example.nl', 'Ann.de.Vries@Example.nl', 'nl', 'pending'],
        ["'=cmd@example.nl", "'=cmd@example.nl", 'en', 'pending'],
        ["'+31-6@example.nl", "'+31-6@example.nl", 'nl', 'pending'],
      ].sort(),
    );
    const createdAt = rows.map((row) => row.split(',')[4] ?? '');
    expect(createdAt).toEqual([...createdAt].sort());

    const forgotten = await waitlistTool(['forget', ' ANN.de.vries@example.NL ', ...options]);
    expect(forgotten).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Removed /) });
    expect(forgotten.stderr).not.toMatch(/ann/i);
    expect(await waitlistTool(['count', ...options])).toMatchObject({
      code: 0,
      stdout: counted({ pending: 2 }),
    });
    expect(await waitlistTool(['forget', 'ann.de.vries@example.nl', ...options])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/was not on the waitlist/),
    });

    // The runner's own store saw the change: the address can join again.
    expect((await postJoin(runner.url, SIGNUPS[0])).status).toBe(201);
    await runner.stop();
    expect(existsSync(join(dataDir, 'mandje-runner.pid'))).toBe(false);
  });

  it('counts confirmed and pending apart, and those who left, and exports only the confirmed with --confirmed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const runner = await startRunnerChild(dataDir);
    await joinAll(runner.url);
    const options = ['--data-dir', dataDir];
    // Confirm the first signup with the link in its mail, as its owner would.
    const outbox = join(dataDir, 'outbox');
    let mail: string | undefined;
    for (let waited = 0; !mail && waited < 5_000; waited += 50) {
      mail = readdirSync(outbox)
        .map((file) => readFileSync(join(outbox, file), 'utf8'))
        .find((raw) => raw.includes('To: Ann.de.Vries@example.nl'));
      if (!mail) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const text = Buffer.from(
      (mail?.split('Content-Type: text/plain')[1]?.split('\r\n\r\n')[1]?.split('\r\n--')[0] ?? '').replace(
        /\r\n/g,
        '',
      ),
      'base64',
    ).toString();
    const token = new URL(text.match(/http:\/\/\S+\/api\/confirm\?\S+/)?.[0] ?? 'http://x').searchParams.get(
      't',
    );
    const confirmed = await fetch(new URL('/api/confirm', runner.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(await confirmed.json()).toEqual({ result: 'confirmed' });

    expect(await waitlistTool(['count', ...options])).toMatchObject({
      stdout: counted({ confirmed: 1, pending: 2 }),
    });
    const rows = csvLines((await waitlistTool(['export', '--confirmed', ...options])).stdout);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/^ann\.de\.vries@example\.nl,Ann\.de\.Vries@Example\.nl,nl,confirmed,/);
    expect(await waitlistTool(['forget', 'ann.de.vries@example.nl', ...options])).toMatchObject({
      stdout: expect.stringMatching(/^Removed /),
    });
    expect(await waitlistTool(['count', ...options])).toMatchObject({ stdout: counted({ pending: 2 }) });

    // Another person leaves by the one-click link in their mail: gone from the list, counted as left.
    let other: string | undefined;
    for (let waited = 0; !other && waited < 5_000; waited += 50) {
      other = readdirSync(outbox)
        .map((file) => readFileSync(join(outbox, file), 'utf8'))
        .find((raw) => raw.includes('List-Unsubscribe:') && !raw.includes('To: Ann.de.Vries@example.nl'));
      if (!other) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const leaveUrl = /^List-Unsubscribe: <([^>]+)>/m.exec(other ?? '')?.[1] ?? 'http://missing';
    const left = await fetch(leaveUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(left.status).toBe(200);
    expect(await waitlistTool(['count', ...options])).toMatchObject({
      stdout: counted({ pending: 1, left: 1 }),
    });
    expect((await waitlistTool(['stats', ...options])).stdout).toMatch(/^left {8}1$/m);
    await runner.stop();
  });

  it('forgets a mailbox whatever form the operator types it in: NFD, punycode, capitals, a trailing dot', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const runner = await startRunnerChild(dataDir);
    expect((await postJoin(runner.url, { email: 'Jose@bu\u0308cher.de', language: 'nl' })).status).toBe(201);
    const options = ['--data-dir', dataDir];

    const forgotten = await waitlistTool(['forget', 'jose@XN--BCHER-KVA.DE.', ...options]);
    expect(forgotten).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Removed /) });
    expect(await waitlistTool(['count', ...options])).toMatchObject({ code: 0, stdout: counted({}) });
    await runner.stop();
  });

  it('shows and forgets every record of a mailbox, by any of its spellings, and says which: plus tags, Gmail’s dots, googlemail.com', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const runner = await startRunnerChild(dataDir);
    for (const email of [
      'AnnDeVries+old@Gmail.com',
      'Ann.de.Vries+news@gmail.com',
      'anndevries@googlemail.com',
      'ann.de.vries@example.nl',
    ])
      expect((await postJoin(runner.url, { email, language: 'en' })).status).toBe(201);
    const options = ['--data-dir', dataDir];
    const spellings = [
      'anndevries+old@gmail.com',
      'ann.de.vries+news@gmail.com',
      'anndevries@googlemail.com',
    ];

    const shown = await waitlistTool(['show', ' A.N.N.de.vries+whatever@GoogleMail.com ', ...options]);

    expect(shown.code).toBe(0);
    expect(shown.stderr).toBe(
      `3 records of this mailbox: ${spellings.map((key) => JSON.stringify(key)).join(', ')}\n`,
    );
    const records = JSON.parse(shown.stdout) as Record<string, unknown>[];
    expect(records.map(({ email, emailAsEntered }) => [email, emailAsEntered])).toEqual([
      ['anndevries+old@gmail.com', 'AnnDeVries+old@Gmail.com'],
      ['ann.de.vries+news@gmail.com', 'Ann.de.Vries+news@gmail.com'],
      ['anndevries@googlemail.com', 'anndevries@googlemail.com'],
    ]);
    // Dots count outside Gmail: ann.de.vries@example.nl is another mailbox, and another person.
    expect(shown.stdout).not.toContain('example.nl');

    const forgotten = await waitlistTool(['forget', 'annDEvries@gmail.com', ...options]);

    expect(forgotten).toMatchObject({
      code: 0,
      stdout: `Removed 3 records of this mailbox from the waitlist:\n${spellings.map((key) => `  ${JSON.stringify(key)}\n`).join('')}`,
    });
    expect(await waitlistTool(['count', ...options])).toMatchObject({ stdout: counted({ pending: 1 }) });
    for (const spelling of spellings)
      expect(await waitlistTool(['show', spelling, ...options])).toMatchObject({ code: 1 });
    expect(JSON.parse((await waitlistTool(['show', 'ann.de.vries@example.nl', ...options])).stdout)).toEqual([
      expect.objectContaining({ email: 'ann.de.vries@example.nl' }),
    ]);
    await runner.stop();
  });

  it('charts signups per day and totals them by language, source and status, without an address, with or without a runner', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const DAY_MS = 24 * 60 * 60 * 1000;
    const now = Date.now();
    // Days back, language and status.
    const signups: [number, 'nl' | 'en', 'confirmed' | 'pending'][] = [
      [0, 'nl', 'confirmed'],
      [0, 'nl', 'confirmed'],
      [0, 'en', 'pending'],
      [0, 'en', 'pending'],
      [1, 'en', 'confirmed'],
      [3, 'nl', 'pending'],
      [3, 'nl', 'pending'],
      [10, 'en', 'pending'],
      [10, 'nl', 'confirmed'],
      [20, 'en', 'pending'],
      [40, 'nl', 'confirmed'],
    ];
    const records = signups.map(([daysBack, language, status], index) => ({
      email: `signup${index}@example.nl`,
      mailbox: mailboxHashOf(`signup${index}@example.nl`),
      emailAsEntered: `Signup${index}@Example.nl`,
      language,
      createdAt: new Date(now - daysBack * DAY_MS).toISOString(),
      consentVersion: '2026-11-21.2',
      expiresAt: Math.floor(now / 1000) + 365 * 24 * 60 * 60,
      status,
    }));
    await seedStore(dataDir, records);
    const dayOf = (daysBack: number) => new Date(now - daysBack * DAY_MS).toISOString().slice(0, 10);
    const options = ['--data-dir', dataDir];

    const stats = await waitlistTool(['stats', ...options]);

    expect(stats.code).toBe(0);
    const chart = chartOf(stats.stdout);
    expect(chart.size).toBe(30);
    const charted = Object.fromEntries(
      [...chart].filter(([, { count }]) => count > 0).map(([day, { bar, count }]) => [day, { bar, count }]),
    );
    expect(charted).toEqual({
      [dayOf(0)]: { bar: 20, count: 4 },
      [dayOf(1)]: { bar: 5, count: 1 },
      [dayOf(3)]: { bar: 10, count: 2 },
      [dayOf(10)]: { bar: 10, count: 2 },
      [dayOf(20)]: { bar: 5, count: 1 },
    });
    expect(chart.has(dayOf(40))).toBe(false);
    expect(stats.stdout).toMatch(/^Visits → signups → confirmed per day \(UTC\), the last 30 days\n/);
    // No visitors counted yet, and these records carry no confirmedAt.
    expect(windowOf(stats.stdout)).toEqual({ days: 30, row: [0, 10, 0, '-', '0.0%'] });
    expect(stats.stdout.split('\n\n').slice(1)).toEqual([
      'By language\nnl          6\nen          5',
      'By source\ndirect      11',
      'By status\nconfirmed   5\npending     6',
      'total       11\nleft        0\n',
    ]);
    for (const output of [stats.stdout, stats.stderr]) expect(output).not.toMatch(/@|signup\d/i);

    const lastWeek = await waitlistTool(['stats', '--days', '7', ...options]);
    expect(chartOf(lastWeek.stdout).size).toBe(7);
    expect(windowOf(lastWeek.stdout)).toEqual({ days: 7, row: [0, 7, 0, '-', '0.0%'] });
    expect(lastWeek.stdout).toMatch(/^total {7}11$/m);

    // Through the store of a runner that has the folder open, with a signup it took itself.
    const runner = await startRunnerChild(dataDir);
    expect((await postJoin(runner.url, { email: 'new@example.nl', language: 'en' })).status).toBe(201);
    const withRunner = await waitlistTool(['stats', ...options]);
    await runner.stop();

    expect(withRunner.code).toBe(0);
    expect(windowOf(withRunner.stdout)).toEqual({
      days: 30,
      row: [0, 11, 0, '-', '0.0%'],
    });
    expect(withRunner.stdout).toMatch(/^en {10}6$/m);
    expect(withRunner.stdout).toMatch(/^pending {5}7$/m);
    expect(withRunner.stdout).toMatch(/^total {7}12$/m);
    expect(withRunner.stdout).not.toContain('@');
  });

  it('shows the funnel over records and the visitors counted on several days, and signups by source', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const DAY_MS = 24 * 60 * 60 * 1000;
    const now = Date.now();
    const dayOf = (daysBack: number) => new Date(now - daysBack * DAY_MS).toISOString().slice(0, 10);
    const at = (daysBack: number) => new Date(now - daysBack * DAY_MS).toISOString();
    // Days back it was made, days back it was confirmed (none: pending), and its source.
    const signups: [number, number | undefined, Record<string, string> | undefined][] = [
      [0, 0, { utmSource: 'newsletter', utmMedium: 'email' }],
      [0, undefined, { utmSource: 'newsletter' }],
      [0, undefined, { referrer: 'instagram.com' }],
      [2, 1, { utmSource: 'flyer', utmMedium: 'qr' }],
      [2, 2, undefined],
      [5, 5, { referrer: 'instagram.com' }],
      [5, undefined, undefined],
      [5, undefined, { utmSource: 'newsletter' }],
      // Outside the 7 days: in the totals only.
      [12, 12, { utmSource: 'flyer' }],
    ];
    // Visitors per day and language, as the beacon counts them, some days outside the window; a count
    // that is not a whole number, and a language the site does not have, are left out.
    const visits: [number, Record<string, unknown>][] = [
      [0, { nl: 40, en: 20 }],
      [1, { nl: 10, de: 7 }],
      [2, { nl: 15, en: 5 }],
      [5, { en: 30, nl: 'x' }],
      [12, { nl: 500 }],
    ];
    await seedStore(dataDir, [
      ...visits.map(([daysBack, counts]) => ({ email: visitsCounterKey(dayOf(daysBack)), ...counts })),
      ...signups.map(([madeBack, confirmedBack, source], index) => ({
        email: `funnel${index}@example.nl`,
        mailbox: mailboxHashOf(`funnel${index}@example.nl`),
        emailAsEntered: `Funnel${index}@Example.nl`,
        language: index % 2 === 0 ? 'nl' : 'en',
        createdAt: at(madeBack),
        consentVersion: '2026-11-22.2',
        expiresAt: Math.floor(now / 1000) + 365 * 24 * 60 * 60,
        status: confirmedBack === undefined ? 'pending' : 'confirmed',
        ...(confirmedBack === undefined ? {} : { confirmedAt: at(confirmedBack) }),
        ...(source ? { source } : {}),
      })),
    ]);

    const stats = await waitlistTool(['stats', '--days', '7', '--data-dir', dataDir]);

    expect(stats.code).toBe(0);
    const chart = chartOf(stats.stdout);
    expect([...chart.keys()]).toEqual([6, 5, 4, 3, 2, 1, 0].map(dayOf));
    expect(Object.fromEntries([...chart].map(([day, { row }]) => [day, row]))).toEqual({
      [dayOf(6)]: [0, 0, 0, '-', '-'],
      [dayOf(5)]: [30, 3, 1, '10.0%', '33.3%'],
      [dayOf(4)]: [0, 0, 0, '-', '-'],
      [dayOf(3)]: [0, 0, 0, '-', '-'],
      [dayOf(2)]: [20, 2, 1, '10.0%', '50.0%'],
      // A confirmation of an earlier signup counts on its own day.
      [dayOf(1)]: [10, 0, 1, '0.0%', '-'],
      [dayOf(0)]: [60, 3, 1, '5.0%', '33.3%'],
    });
    expect(windowOf(stats.stdout)).toEqual({ days: 7, row: [120, 8, 4, '6.7%', '50.0%'] });
    expect(stats.stdout).toContain(
      '\nBy source\nnewsletter    3\ndirect        2\nflyer         2\ninstagram.com 2\n',
    );
    expect(stats.stdout).toMatch(/^total {7}9$/m);
    expect(Math.max(...stats.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
    for (const output of [stats.stdout, stats.stderr]) expect(output).not.toMatch(/@|funnel\d/i);
  });

  it('opens the folder itself when no runner is running, and leaves it free for the next runner', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const first = await startRunnerChild(dataDir);
    await joinAll(first.url);
    await first.stop();
    const env = { DATA_DIR: dataDir };

    expect(await waitlistTool(['count'], env)).toMatchObject({ code: 0, stdout: counted({ pending: 3 }) });
    expect(csvLines((await waitlistTool(['export'], env)).stdout)).toHaveLength(4);
    expect(await waitlistTool(['forget', '=CMD@example.nl'], env)).toMatchObject({
      code: 0,
      stdout: 'Removed 1 record of this mailbox from the waitlist:\n  "=cmd@example.nl"\n',
    });
    expect(await waitlistTool(['count'], env)).toMatchObject({ code: 0, stdout: counted({ pending: 2 }) });

    const second = await startRunnerChild(dataDir);
    expect((await postJoin(second.url, SIGNUPS[1])).status).toBe(201);
    expect((await postJoin(second.url, SIGNUPS[2])).status).toBe(409);
    await second.stop();
  });

  it('opens the folder itself when the recorded runner is gone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    const runner = await startRunnerChild(dataDir);
    await joinAll(runner.url);
    await runner.stop();
    // What a runner killed without warning leaves behind: a record of a process that no longer exists.
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolveExit) => gone.once('exit', resolveExit));
    writeFileSync(
      join(dataDir, 'mandje-runner.pid'),
      JSON.stringify({ pid: gone.pid, endpoint: 'http://127.0.0.1:9' }),
    );

    expect(await waitlistTool(['count', '--data-dir', dataDir])).toMatchObject({
      code: 0,
      stdout: counted({ pending: 3 }),
    });
  });

  it.each([
    [[], /no command/],
    [['forget'], /forget needs one address/],
    [['count', 'ann@example.nl'], /unknown command, or more arguments/],
    [['count', '--region', 'eu-west-1'], /--region applies to --table only/],
    [['count', '--verbose'], /Unknown option/],
    [['stats', '--days', '0'], /--days needs a whole number of days from 1 to 366/],
    [['stats', '--days', '2.5'], /--days needs a whole number of days from 1 to 366/],
    [['stats', '--days', '367'], /--days needs a whole number of days from 1 to 366/],
    [['count', '--days', '7'], /--days applies to stats only/],
    [
      ['announce', 'launch', '--send', '--rate', '0'],
      /--rate needs a number of mails per second, 0.001 at least/,
    ],
    [['announce', 'launch', '--send', '--rate', '0.0000001'], /--rate needs a number of mails per second/],
    [
      ['announce', 'launch', '--stop', '--send'],
      /--stop stops a send: it takes neither --send nor --test-to/,
    ],
    [['count', '--stop'], /--stop applies to announce only/],
  ])('answers the usage error %j with exit code 2 and the usage', async (args, reason) => {
    const result = await waitlistTool(args);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).toMatch(/Usage: npm run waitlist -- <command>/);
    expect(result.stderr).not.toContain('ann@');
  });

  it('takes --days and --rate at their lower bounds: the last day, and a mail every 1,000 s', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mandje-data-'));
    await seedStore(dataDir, []);
    const folder = join(mkdtempSync(join(tmpdir(), 'mandje-announce-')), 'launch');
    mkdirSync(folder);
    for (const language of ['nl', 'en'])
      writeFileSync(join(folder, `${language}.md`), 'Subject: Hoi\n\nHoi.\n');

    const stats = await waitlistTool(['stats', '--days', '1', '--data-dir', dataDir]);
    // Nobody is owed it, so the send at that rate ends at once.
    const send = await waitlistTool(['announce', folder, '--send', '--rate', '0.001', '--data-dir', dataDir]);

    expect(stats.code, stats.stderr).toBe(0);
    expect(windowOf(stats.stdout).days).toBe(1);
    expect(send.code, send.stderr).toBe(0);
    expect(send.stdout).toContain('Sent 0');
  });

  it('says in one line when there is no local waitlist to work on', async () => {
    const missing = join(tmpdir(), `mandje-missing-${Date.now()}`);
    const result = await waitlistTool(['count', '--data-dir', missing]);

    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      `waitlist: there is no local waitlist in ${missing} (set DATA_DIR or --data-dir)`,
    ]);
    expect(existsSync(missing)).toBe(false);
  });

  it('says in one line, without a stack, when AWS credentials are missing', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mandje-home-'));
    const result = await waitlistTool(['count', '--table', 'mandje-waitlist', '--region', 'eu-west-1'], {
      HOME: home,
      AWS_CONFIG_FILE: join(home, 'config'),
      AWS_SHARED_CREDENTIALS_FILE: join(home, 'credentials'),
      AWS_ACCESS_KEY_ID: '',
      AWS_SECRET_ACCESS_KEY: '',
      AWS_SESSION_TOKEN: '',
      AWS_PROFILE: '',
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_CONTAINER_CREDENTIALS_FULL_URI: '',
      AWS_CONTAINER_CREDENTIALS_RELATIVE_URI: '',
      AWS_WEB_IDENTITY_TOKEN_FILE: '',
    });

    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^waitlist: no AWS credentials found/),
    ]);
  });
});
