/** `npm run waitlist -- <command>`: the operator's tools, on the local store or (--table) the AWS table. */
import { parseArgs } from 'node:util';
import { ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { MIN_ANNOUNCEMENT_RATE } from '#contract/mail-pace';
import { AnnouncementError } from '../functions/announce/announcement-text';
import { errorNameOf, faultClassOf } from '../functions/telemetry/fault-class';
import { dataDirFromEnvironment } from '../local/data-dir';
import { type AnnounceRequest, announce } from './announce-command';
import { preflight } from './preflight';
import { runSmoke } from './smoke';
import { statusOf, waitlistCsv } from './waitlist-csv';
import {
  DEFAULT_STATS_DAYS,
  labelRows,
  MAX_STATS_DAYS,
  statsDays,
  waitlistStats,
  waitlistStatsReport,
} from './waitlist-stats';
import {
  allRecords,
  allSignupFacts,
  countByStatus,
  findRecords,
  forgetRecords,
  leftCount,
  openWaitlistTable,
  visitsByDay,
  type WaitlistTable,
  type WaitlistTarget,
  WaitlistToolError,
} from './waitlist-store-access';

// The store this tool may open creates files of email addresses: its owner's only, as with `npm start`.
process.umask(0o077);

// On Node 20 the AWS SDK prints eight lines about its future Node support on every run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `Usage: npm run waitlist -- <command> [options]   (docs/operating.md says more)

  count                  how many are on the waitlist: confirmed, pending, in all
  export [--confirmed]   the waitlist as CSV, oldest first
  forget <address>       remove every record of that mailbox, however it is spelled
  show <address>         everything stored about that mailbox, as JSON (GDPR art. 15)
  stats [--days N]       visits -> signups -> confirmed per UTC day (default ${DEFAULT_STATS_DAYS}, at most ${MAX_STATS_DAYS}), then totals
  announce <folder>      a dry run of <folder>/nl.md and en.md, with previews (--preview DIR);
                         --test-to ADDRESS, --send [--rate N] [--resend-unknown], or --stop
  preflight              on AWS, before a launch: what blocks it (exit 1 if anything does)
  smoke <url>            after a deploy: the site end to end, one line per check (exit 1 on a failure)

Options: --data-dir DIR (default DATA_DIR or .data), or --table NAME [--region REGION] on AWS`;

type Command =
  | { name: 'count' }
  | { name: 'preflight'; region?: string }
  | { name: 'export'; confirmedOnly: boolean }
  | { name: 'forget' | 'show'; address: string }
  | { name: 'stats'; days: number }
  | ({ name: 'announce' } & AnnounceRequest)
  | { name: 'smoke'; site: URL };

class UsageError extends Error {}

/** A decimal (or `whole` number) from `min` to `max`, or the usage error `problem`. */
function numberOption(value: string, whole: boolean, problem: string, min: number, max = Infinity) {
  const number = (whole ? /^\d+$/ : /^\d+(\.\d+)?$/).test(value) ? Number(value) : Number.NaN;
  if (!(number >= min && number <= max)) throw new UsageError(problem);
  return number;
}

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

function parseCommandLine(args: string[]): { command: Command; target: WaitlistTarget } {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
  const [name, ...rest] = positionals;
  const argument = rest.length === 1 ? String(rest[0]).trim() : '';
  // Not echoed: what was typed may be an address.
  if (!name) throw new UsageError('no command');
  const takesOne = ['forget', 'show', 'announce'].includes(name);
  if (takesOne && !argument)
    throw new UsageError(`${name} needs one ${name === 'announce' ? 'folder' : 'address'}`);
  if (!takesOne && name !== 'smoke' && rest.length > 0)
    throw new UsageError('unknown command, or more arguments than it takes');

  let command: Command;
  if (name === 'count') command = { name };
  else if (name === 'preflight') command = { name, region: values.region || undefined };
  else if (name === 'export') command = { name, confirmedOnly: values.confirmed === true };
  else if (name === 'stats') {
    const problem = `--days needs a whole number of days from 1 to ${MAX_STATS_DAYS}`;
    command = {
      name,
      days: numberOption(values.days ?? String(DEFAULT_STATS_DAYS), true, problem, 1, MAX_STATS_DAYS),
    };
  } else if (name === 'forget' || name === 'show') command = { name, address: argument };
  else if (name === 'announce') {
    if (values.send && values['test-to'] !== undefined)
      throw new UsageError('use either --send or --test-to, not both');
    if (values['resend-unknown'] && !values.send) throw new UsageError('--resend-unknown needs --send');
    if (values.stop && (values.send || values['test-to'] !== undefined))
      throw new UsageError('--stop stops a send: it takes neither --send nor --test-to');
    const problem = `--rate needs a number of mails per second, ${MIN_ANNOUNCEMENT_RATE} at least`;
    command = {
      name,
      folder: argument,
      send: values.send === true,
      resendUnknown: values['resend-unknown'],
      stop: values.stop,
      testTo: values['test-to'],
      rate:
        values.rate === undefined
          ? undefined
          : numberOption(values.rate, false, problem, MIN_ANNOUNCEMENT_RATE),
      previewDir: values.preview,
    };
  } else if (name === 'smoke') {
    const site = URL.canParse(argument) ? new URL(argument) : undefined;
    if (!site || !/^https?:$/.test(site.protocol)) throw new UsageError('smoke needs the site’s URL');
    command = { name, site };
  } else throw new UsageError('unknown command, or more arguments than it takes');

  for (const [option, { only }] of Object.entries<{ type: string; only?: string }>(OPTIONS))
    if (only && only !== name && values[option as keyof typeof values] !== undefined)
      throw new UsageError(`--${option} applies to ${only} only`);
  if (name === 'preflight' && (values.table !== undefined || values['data-dir'] !== undefined))
    throw new UsageError('preflight finds the stack itself: it takes --region only');
  if (values.table !== undefined) {
    if (!values.table) throw new UsageError('--table needs a table name');
    if (values['data-dir'] !== undefined) throw new UsageError('use either --table or --data-dir, not both');
    return { command, target: { kind: 'aws', tableName: values.table, region: values.region || undefined } };
  }
  if (values.region !== undefined && name !== 'preflight')
    throw new UsageError('--region applies to --table only');
  const dataDir = dataDirFromEnvironment(values['data-dir'] ?? process.env.DATA_DIR);
  return { command, target: { kind: 'local', dataDir } };
}

/** One sentence the operator can act on; never a stack trace. */
function explain(error: unknown): string {
  if (error instanceof WaitlistToolError || error instanceof AnnouncementError) return error.message;
  const name = errorNameOf(error);
  if (name === 'CredentialsProviderError')
    return 'no AWS credentials found (use aws configure, AWS_PROFILE or the AWS_* environment variables)';
  if (error instanceof ResourceNotFoundException)
    return `no such table (${name}): check --table and --region`;
  const fault = faultClassOf(error);
  if (fault === 'access_denied')
    return `AWS refused these credentials (${name}); docs/operating.md lists what each command needs`;
  if (fault === 'network' || fault === 'timeout')
    return `could not reach AWS (${name}); check the network and --region`;
  return `${name}: ${String((error as Error | undefined)?.message).split('\n')[0]}`;
}

const recordsOf = (count: number) => `${count} record${count === 1 ? '' : 's'}`;

async function run(
  command: Exclude<Command, { name: 'preflight' }>,
  table: WaitlistTable,
  target: WaitlistTarget,
): Promise<number> {
  switch (command.name) {
    case 'show': {
      const records = await findRecords(table, command.address);
      if (records.length === 0) {
        process.stdout.write(`no record of ${command.address}\n`);
        return 1;
      }
      // Which spellings, to the terminal; the records alone on stdout, a JSON file for the person.
      process.stderr.write(
        `${recordsOf(records.length)} of this mailbox: ${records.map(({ email }) => JSON.stringify(email)).join(', ')}\n`,
      );
      const sorted = records.map((record) =>
        Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1))),
      );
      process.stdout.write(
        `${JSON.stringify(sorted, (_, value) => (value instanceof Set ? [...value].sort() : value), 2)}\n`,
      );
      return 0;
    }
    case 'announce': {
      // Ctrl-C once: finish the mails in flight, then stop; twice: stop at once.
      const controller = new AbortController();
      const stop = () => {
        if (controller.signal.aborted) process.exit(130);
        controller.abort();
      };
      process.on('SIGINT', stop);
      try {
        const out = (text: string) => process.stdout.write(text);
        return await announce(table, target, command, { out, signal: controller.signal });
      } finally {
        process.off('SIGINT', stop);
      }
    }
    case 'count': {
      const counts = Object.entries(await countByStatus(table));
      const total = counts.reduce((sum, [, count]) => sum + count, 0);
      // Those who left are no longer on the list, so not in the total: only their number is kept.
      process.stdout.write(labelRows([...counts, ['total', total], ['left', await leftCount(table)]]));
      return 0;
    }
    case 'export': {
      const records = await allRecords(table);
      const shown = records.filter((record) => !command.confirmedOnly || statusOf(record) === 'confirmed');
      process.stdout.write(waitlistCsv(shown));
      return 0;
    }
    case 'forget': {
      const forgotten = await forgetRecords(table, command.address);
      process.stdout.write(
        forgotten.length > 0
          ? `Removed ${recordsOf(forgotten.length)} of this mailbox from the waitlist:\n${forgotten.map((key) => `  ${JSON.stringify(key)}\n`).join('')}`
          : `${command.address} was not on the waitlist; nothing removed.\n`,
      );
      return 0;
    }
    case 'smoke':
      return runSmoke({ site: command.site, table, out: (line) => process.stdout.write(`${line}\n`) });
    case 'stats': {
      const now = new Date();
      const records = await allSignupFacts(table);
      const visits = await visitsByDay(table, statsDays(now, command.days));
      const stats = waitlistStats(records, { now, days: command.days, visits });
      process.stdout.write(waitlistStatsReport(stats) + labelRows([['left', await leftCount(table)]]));
      return 0;
    }
  }
}

async function main(args: string[]): Promise<number> {
  let request: ReturnType<typeof parseCommandLine>;
  try {
    request = parseCommandLine(args);
  } catch (error) {
    // A UsageError, or parseArgs' own for an unknown or malformed option.
    console.error(`waitlist: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { command } = request;
  let table: WaitlistTable | undefined;
  try {
    if (command.name === 'preflight')
      return await preflight(command.region, (line) => process.stdout.write(`${line}\n`));
    table = await openWaitlistTable(request.target);
    return await run(command, table, request.target);
  } catch (error) {
    console.error(`waitlist: ${explain(error)}`);
    return 1;
  } finally {
    await table?.close().catch(() => {});
  }
}

// Let the event loop end by itself, so the CSV written to a pipe is flushed in full.
process.exitCode = await main(process.argv.slice(2));
