import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { visitsCounterKey } from '#contract/visit-counting';
import { LEFT_COUNTER_KEY } from '#contract/waitlist-table';
import { killRunnerChildren, startRunnerChild } from './runner-child';
import { postJoin } from './waitlist-api';
import { person, seededStore, waitlistTool } from './waitlist-tool-run';

afterEach(killRunnerChildren);

/** What `count` prints: each status, then the total, then how many left. */
const counted = ({ confirmed = 0, pending = 0, left = 0 }) =>
  `confirmed   ${confirmed}\npending     ${pending}\ntotal       ${confirmed + pending}\nleft        ${left}\n`;

const DAY_MS = 24 * 60 * 60 * 1000;
const daysBack = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

// Nine runs of the tool, each a process of its own.
it('counts, exports, shows and forgets through the store of a running runner, every spelling of a mailbox', {
  timeout: 120_000,
}, async () => {
  const dataDir = await seededStore([
    person('ann@example.nl', {
      createdAt: daysBack(3),
      status: 'confirmed',
      confirmedAt: daysBack(3),
      announcements: new Set(['spring', 'launch']),
    }),
    { email: LEFT_COUNTER_KEY, count: 1 },
  ]);
  const runner = await startRunnerChild(dataDir);
  // An address a spreadsheet would read as a formula, and spellings of one mailbox.
  const signups = [
    '=cmd@example.nl',
    'AnnDeVries+old@Gmail.com',
    'anndevries@googlemail.com',
    'Jose@bu\u0308cher.de',
  ];
  for (const email of signups)
    expect((await postJoin(runner.url, { email, language: 'en' })).status).toBe(201);
  const tool = (...args: string[]) => waitlistTool([...args, '--data-dir', dataDir]);

  expect((await tool('count')).stdout).toBe(counted({ confirmed: 1, pending: 4, left: 1 }));
  // Its columns and the formula guard: test/unit/operator/waitlist-csv.
  expect((await tool('export', '--confirmed')).stdout.split('\r\n').slice(1)).toEqual([
    expect.stringMatching(/^ann@example\.nl,/),
    '',
  ]);

  // Everything stored, attributes in order, sets as sorted lists (GDPR art. 15 and 20).
  const [ann] = JSON.parse((await tool('show', 'Ann@Example.nl')).stdout);
  expect(Object.keys(ann)).toEqual(Object.keys(ann).sort());
  expect(ann).toMatchObject({
    email: 'ann@example.nl',
    announcements: ['launch', 'spring'],
    status: 'confirmed',
  });
  const shown = await tool('show', ' A.N.N.de.vries+whatever@GoogleMail.com ');
  expect(shown.stderr).toBe(
    '2 records of this mailbox: "anndevries+old@gmail.com", "anndevries@googlemail.com"\n',
  );
  expect(JSON.parse(shown.stdout)).toEqual([
    expect.objectContaining({
      email: 'anndevries+old@gmail.com',
      emailAsEntered: 'AnnDeVries+old@Gmail.com',
    }),
    expect.objectContaining({ email: 'anndevries@googlemail.com', language: 'en', status: 'pending' }),
  ]);
  expect(await tool('forget', 'annDEvries@gmail.com')).toMatchObject({
    code: 0,
    stdout:
      'Removed 2 records of this mailbox from the waitlist:\n  "anndevries+old@gmail.com"\n  "anndevries@googlemail.com"\n',
  });
  // NFD, punycode, capitals, a trailing dot: the same key as the API's.
  expect(await tool('forget', 'jose@XN--BCHER-KVA.DE.')).toMatchObject({
    stdout: expect.stringMatching(/^Removed 1 /),
  });
  expect(await tool('forget', 'jose@bücher.de')).toMatchObject({
    code: 0,
    stdout: expect.stringMatching(/was not on/),
  });
  expect(await tool('count')).toMatchObject({ stdout: counted({ confirmed: 1, pending: 1, left: 1 }) });

  // The runner's own store saw it: the address can join again.
  expect((await postJoin(runner.url, { email: 'anndevries@gmail.com', language: 'nl' })).status).toBe(201);
  await runner.stop();
});

it('charts the funnel from the records and the visitors counted, without an address, opening a stale runner’s folder itself', async () => {
  // Days back made, days back confirmed (none: pending), and the source.
  const signups: [number, number | undefined, object | undefined][] = [
    [0, 0, { utmSource: 'newsletter' }],
    [0, undefined, { referrer: 'instagram.com' }],
    [2, 1, undefined],
    [6, 6, { utmSource: 'newsletter' }],
    [12, 12, undefined], // outside the 7 days: in the totals only
  ];
  const dataDir = await seededStore([
    { email: visitsCounterKey(daysBack(0).slice(0, 10)), nl: 40, en: 20 },
    // A count that is not a whole number, and a language the site does not have, are left out.
    { email: visitsCounterKey(daysBack(2).slice(0, 10)), nl: 15, de: 7, en: 'x' },
    { email: visitsCounterKey(daysBack(12).slice(0, 10)), nl: 500 },
    ...signups.map(([made, confirmed, source], index) =>
      person(`funnel${index}@example.nl`, {
        createdAt: daysBack(made),
        ...(confirmed === undefined ? {} : { status: 'confirmed', confirmedAt: daysBack(confirmed) }),
        ...(source ? { source } : {}),
      }),
    ),
  ]);
  // What a runner killed without warning leaves: a record of a process that no longer exists.
  writeFileSync(
    join(dataDir, 'mandje-runner.pid'),
    JSON.stringify({ pid: 2 ** 22 + 1, endpoint: 'http://127.0.0.1:9' }),
  );

  const stats = await waitlistTool(['stats', '--days', '7', '--data-dir', dataDir]);

  expect(stats.code, stats.stderr).toBe(0);
  expect(stats.stdout).toMatch(/^last 7 days +75 +4 +3 +5\.3% +75\.0%$/m);
  expect(stats.stdout).toMatch(/^total {7}5\nleft {8}0\n$/m);
  for (const output of [stats.stdout, stats.stderr]) expect(output).not.toMatch(/@|funnel\d/i);

  // It left the folder free for the next runner.
  const runner = await startRunnerChild(dataDir);
  expect((await postJoin(runner.url, { email: 'funnel0@example.nl', language: 'nl' })).status).toBe(409);
  await runner.stop();
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
  [['announce', 'launch', '--send', '--rate', '0.0009'], /--rate needs a number of mails per second, 0.001/],
  [['announce', 'launch', '--stop', '--send'], /--stop stops a send: it takes neither --send nor --test-to/],
  [['preflight', '--table', 'x'], /preflight finds the stack itself: it takes --region only/],
])('answers the usage error %j with exit code 2 and the usage', async (args, reason) => {
  const result = await waitlistTool(args);

  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(reason);
  expect(result.stderr).toMatch(/Usage: npm run waitlist -- <command>/);
  expect(result.stderr).not.toContain('ann@');
});

it('says in one line when there is no local waitlist, or no AWS credentials', async () => {
  const missing = join(tmpdir(), `mandje-missing-${Date.now()}`);
  const home = mkdtempSync(join(tmpdir(), 'mandje-home-'));
  const noCredentials = {
    HOME: home,
    AWS_CONFIG_FILE: join(home, 'config'),
    AWS_SHARED_CREDENTIALS_FILE: join(home, 'credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    ...Object.fromEntries(
      'ACCESS_KEY_ID SECRET_ACCESS_KEY SESSION_TOKEN PROFILE CONTAINER_CREDENTIALS_FULL_URI CONTAINER_CREDENTIALS_RELATIVE_URI WEB_IDENTITY_TOKEN_FILE'
        .split(' ')
        .map((name) => [`AWS_${name}`, '']),
    ),
  };

  expect(await waitlistTool(['count', '--data-dir', missing])).toMatchObject({
    code: 1,
    stderr: `waitlist: there is no local waitlist in ${missing} (set DATA_DIR or --data-dir)\n`,
  });
  expect(existsSync(missing)).toBe(false);
  const stderr =
    'waitlist: no AWS credentials found (use aws configure, AWS_PROFILE or the AWS_* environment variables)\n';
  for (const args of [['count', '--table', 'mandje-waitlist'], ['preflight']])
    expect(await waitlistTool([...args, '--region', 'eu-west-1'], noCredentials)).toMatchObject({
      code: 1,
      stderr,
    });
});
