/** `npm run waitlist -- <command>`: the operator's tools, on the local store or (--table) the AWS table. */
import { parseArgs } from 'node:util';
import { MIN_ANNOUNCEMENT_RATE } from '#contract/mail-pace';
import { AnnouncementError } from '../functions/announce/announcement-text';
import { errorNameOf, faultClassOf } from '../functions/telemetry/fault-class';
import { dataDirFromEnvironment } from '../local/data-dir';
import { announce } from './announce-command';
import { preflight } from './preflight';
import { runSmoke } from './smoke';
import { statusOf, waitlistCsv } from './waitlist-csv';
import * as stats from './waitlist-stats';
import * as store from './waitlist-store-access';

// The store this tool may open creates files of email addresses: its owner's only, as with `npm start`.
process.umask(0o077);

// On Node 20 the AWS SDK prints eight lines about its future Node support on every run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `Usage: npm run waitlist -- <command> [options]   (docs/operating.md says more)

  count                  how many are on the waitlist: confirmed, pending, in all
  export [--confirmed]   the waitlist as CSV, oldest first
  forget <address>       remove every record of that mailbox, however it is spelled
  show <address>         everything stored about that mailbox, as JSON (GDPR art. 15)
  stats [--days N]       visits -> signups -> confirmed per UTC day (default ${stats.DEFAULT_STATS_DAYS}, at most ${stats.MAX_STATS_DAYS}), then totals
  announce <folder>      a dry run of <folder>/nl.md and en.md, with previews (--preview DIR);
                         --test-to ADDRESS, --send [--rate N] [--resend-unknown], or --stop
  preflight              on AWS, before a launch: what blocks it (exit 1 if anything does)
  smoke <url>            after a deploy: the site end to end, one line per check (exit 1 on a failure)

Options: --data-dir DIR (default DATA_DIR or .data), or --table NAME [--region REGION] on AWS`;

class UsageError extends Error {}

/** What a command takes after its name, in the words of its usage error; the others take nothing. */
const OPERANDS: Record<string, string> = {
  forget: 'one address',
  show: 'one address',
  announce: 'one folder',
  smoke: 'the site’s URL',
};
const COMMANDS = ['count', 'export', 'stats', 'preflight', ...Object.keys(OPERANDS)];

/** `only`: the one command that takes the option (parseArgs leaves the key alone). */
const OPTIONS = {
  'data-dir': { type: 'string' },
  table: { type: 'string' },
  region: { type: 'string' },
  confirmed: { type: 'boolean', only: 'export' },
  days: { type: 'string', only: 'stats' },
  'test-to': { type: 'string', only: 'announce' },
  send: { type: 'boolean', only: 'announce' },
  stop: { type: 'boolean', only: 'announce' },
  'resend-unknown': { type: 'boolean', only: 'announce' },
  rate: { type: 'string', only: 'announce' },
  preview: { type: 'string', only: 'announce' },
} as const;

function parseCommandLine(args: string[]) {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
  const [name = '', ...rest] = positionals;
  const argument = rest.length === 1 ? String(rest[0]).trim() : '';
  const needs = OPERANDS[name] ?? '';
  // Not echoed: what was typed may be an address.
  if (!name) throw new UsageError('no command');
  if (!COMMANDS.includes(name) || (!needs && rest.length > 0))
    throw new UsageError('unknown command, or more arguments than it takes');
  const site = name === 'smoke' && URL.canParse(argument) ? new URL(argument) : undefined;
  if ((needs && !argument) || (name === 'smoke' && !/^https?:$/.test(site?.protocol ?? '')))
    throw new UsageError(`${name} needs ${needs}`);
  for (const [option, { only }] of Object.entries<{ type: string; only?: string }>(OPTIONS))
    if (only && only !== name && values[option as keyof typeof values] !== undefined)
      throw new UsageError(`--${option} applies to ${only} only`);
  const testTo = values['test-to'] !== undefined;
  if (values.send && testTo) throw new UsageError('use either --send or --test-to, not both');
  if (values['resend-unknown'] && !values.send) throw new UsageError('--resend-unknown needs --send');
  if (values.stop && (values.send || testTo))
    throw new UsageError('--stop stops a send: it takes neither --send nor --test-to');
  const { days = String(stats.DEFAULT_STATS_DAYS), rate } = values;
  if (!/^\d+$/.test(days) || !(Number(days) >= 1 && Number(days) <= stats.MAX_STATS_DAYS))
    throw new UsageError(`--days needs a whole number of days from 1 to ${stats.MAX_STATS_DAYS}`);
  if (rate !== undefined && !(/^\d+(\.\d+)?$/.test(rate) && Number(rate) >= MIN_ANNOUNCEMENT_RATE))
    throw new UsageError(`--rate needs a number of mails per second, ${MIN_ANNOUNCEMENT_RATE} at least`);
  if (name === 'preflight' && (values.table !== undefined || values['data-dir'] !== undefined))
    throw new UsageError('preflight finds the stack itself: it takes --region only');
  if (values.table === '') throw new UsageError('--table needs a table name');
  if (values.table && values['data-dir'] !== undefined)
    throw new UsageError('use either --table or --data-dir, not both');
  if (values.region !== undefined && !values.table && name !== 'preflight')
    throw new UsageError('--region applies to --table only');
  const target: store.WaitlistTarget = values.table
    ? { kind: 'aws', tableName: values.table, region: values.region || undefined }
    : { kind: 'local', dataDir: dataDirFromEnvironment(values['data-dir'] ?? process.env.DATA_DIR) };
  return { name, argument, site, values, target };
}

/** One sentence the operator can act on; never a stack trace. */
function explain(error: unknown): string {
  if (error instanceof store.WaitlistToolError || error instanceof AnnouncementError) return error.message;
  const name = errorNameOf(error);
  if (name === 'CredentialsProviderError')
    return 'no AWS credentials found (use aws configure, AWS_PROFILE or the AWS_* environment variables)';
  if (name === 'ResourceNotFoundException') return `no such table (${name}): check --table and --region`;
  const fault = faultClassOf(error);
  if (fault === 'access_denied')
    return `AWS refused these credentials (${name}); docs/operating.md lists what each command needs`;
  if (fault === 'network' || fault === 'timeout')
    return `could not reach AWS (${name}); check the network and --region`;
  return `${name}: ${String((error as Error | undefined)?.message).split('\n')[0]}`;
}

const recordsOf = (count: number) => `${count} record${count === 1 ? '' : 's'}`;
const print = (text: string) => process.stdout.write(text);
const printLine = (line: string) => print(`${line}\n`);

async function run(
  { name, argument, site, values, target }: ReturnType<typeof parseCommandLine>,
  table: store.WaitlistTable,
): Promise<number> {
  if (name === 'show') {
    const records = await store.findRecords(table, argument);
    if (records.length === 0) {
      print(`no record of ${argument}\n`);
      return 1;
    }
    // Which spellings, to the terminal; the records alone on stdout, a JSON file for the person.
    const spellings = records.map(({ email }) => JSON.stringify(email)).join(', ');
    process.stderr.write(`${recordsOf(records.length)} of this mailbox: ${spellings}\n`);
    const sorted = records.map((record) =>
      Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1))),
    );
    print(`${JSON.stringify(sorted, (_, value) => (value instanceof Set ? [...value].sort() : value), 2)}\n`);
  } else if (name === 'announce') {
    // Ctrl-C once: finish the mails in flight, then stop; twice: stop at once.
    const controller = new AbortController();
    const stop = () => (controller.signal.aborted ? process.exit(130) : controller.abort());
    process.on('SIGINT', stop);
    const request = {
      folder: argument,
      send: values.send === true,
      resendUnknown: values['resend-unknown'],
      stop: values.stop,
      testTo: values['test-to'],
      rate: values.rate ? Number(values.rate) : undefined,
      previewDir: values.preview,
    };
    return announce(table, target, request, { out: print, signal: controller.signal }).finally(() =>
      process.off('SIGINT', stop),
    );
  } else if (name === 'export') {
    const records = await store.allRecords(table);
    print(waitlistCsv(records.filter((record) => !values.confirmed || statusOf(record) === 'confirmed')));
  } else if (name === 'forget') {
    const forgotten = await store.forgetRecords(table, argument);
    const keys = forgotten.map((key) => `  ${JSON.stringify(key)}\n`).join('');
    print(
      forgotten.length > 0
        ? `Removed ${recordsOf(forgotten.length)} of this mailbox from the waitlist:\n${keys}`
        : `${argument} was not on the waitlist; nothing removed.\n`,
    );
  } else if (name === 'smoke') return runSmoke({ site: site as URL, table, out: printLine });
  else {
    const [now, days] = [new Date(), Number(values.days ?? stats.DEFAULT_STATS_DAYS)];
    const visits = name === 'stats' ? await store.visitsByDay(table, stats.statsDays(now, days)) : {};
    const report = stats.waitlistStats(await store.allSignupFacts(table), { now, days, visits });
    // Those who left are no longer on the list, so not in the total: only their number is kept.
    const left: [string, number] = ['left', await store.leftCount(table)];
    const { byStatus, total } = report;
    print(
      name === 'count'
        ? stats.labelRows([...Object.entries(byStatus), ['total', total], left])
        : stats.waitlistStatsReport(report) + stats.labelRows([left]),
    );
  }
  return 0;
}

async function main(args: string[]): Promise<number> {
  let command: ReturnType<typeof parseCommandLine>;
  try {
    command = parseCommandLine(args);
  } catch (error) {
    // A UsageError, or parseArgs' own for an unknown or malformed option.
    console.error(`waitlist: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  let table: store.WaitlistTable | undefined;
  try {
    if (command.name === 'preflight') return await preflight(command.values.region || undefined, printLine);
    table = await store.openWaitlistTable(command.target);
    return await run(command, table);
  } catch (error) {
    console.error(`waitlist: ${explain(error)}`);
    return 1;
  } finally {
    await table?.close().catch(() => {});
  }
}

// Let the event loop end by itself, so the CSV written to a pipe is flushed in full.
process.exitCode = await main(process.argv.slice(2));
