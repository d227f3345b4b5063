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

const USAGE = `Usage: npm run waitlist -- <command> [options]

Commands:
  count              print how many addresses are on the waitlist: confirmed, pending, in all
  export             print the waitlist as CSV (a header row, then oldest first);
                     --confirmed: only the confirmed addresses, for the launch mail
  forget <address>   remove every record of that address's mailbox, however it is typed or spelled
                     (plus tags, Gmail's dots, googlemail.com), and say which there were
  stats [--days N]   visits -> signups -> confirmed per UTC day over the last N days (default
                     ${DEFAULT_STATS_DAYS}, at most ${MAX_STATS_DAYS}, today included) and the conversion rates, then the
                     whole list by language, source and status; visits: each visitor once a
                     day per language, as the home pages' beacon counted them in the table
  show <address>     print everything stored about that person, every record of their mailbox, as a
                     JSON list (GDPR art. 15 and 20); which spellings there are on stderr
  announce <folder>  the announcement in <folder>/nl.md and <folder>/en.md ("Subject: …", a blank line,
                     the body); the folder's name is its id. Without options a dry run: a preview .eml
                     per language (--preview DIR, default <folder>/preview) and who would get it.
                     --test-to ADDRESS: one mail per language to that address only
                     --send: to every confirmed person who has not had it, in their language; run it
                     again to finish a stopped run (nobody gets two). With --table the tool queues it
                     for the mailer in AWS and follows it (Ctrl-C stops following, not sending; run it
                     again to follow it again)
                     --stop: with --table, the send under way sends none of its remaining mails
                     --resend-unknown: with --send, also to those whose send an earlier run left
                     unknown (a crash during their send): some of them may get the mail twice
                     --rate N: mails per second at most, 0.001 at least (default: as fast as SES's
                     maximum send rate lets, leaving some for confirmations; locally no limit)
  preflight          before a launch, on AWS: one line per thing the account still lacks (SES, DNS, the
                     alarm subscription, Lambda's quota, CloudFront, the deployed page); reads only, finds
                     the stack Mandje itself (--region), exits 1 when anything blocks the launch
  smoke <url>        after a deploy: the site at <url> as visitors use it (both pages and their security
                     headers, the not-found page, a signup of SES's mailbox simulator and its mail, the
                     duplicate, a cross-site post, the visit beacon, a one-click leave); one line per
                     check, exits 1 on any failure; counts in no funnel, and forgets its records (on
                     AWS with --table, the stack's TableName output)

Options:
  --data-dir DIR     the local store's folder (default: DATA_DIR, or .data)
  --table NAME       use this DynamoDB table in AWS instead, with the default AWS credential chain
  --region REGION    the AWS region of --table or preflight (default: AWS_REGION or the AWS config)`;

type Command =
  | { name: 'count' }
  | { name: 'export'; confirmedOnly: boolean }
  | { name: 'forget' | 'show'; address: string }
  | { name: 'stats'; days: number }
  | ({ name: 'announce' } & AnnounceRequest)
  | { name: 'preflight'; region?: string }
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
  const [argument] = rest.length === 1 ? rest : [];

  let command: Command;
  if ((name === 'count' || name === 'export' || name === 'stats' || name === 'preflight') && rest.length > 0)
    throw new UsageError('unknown command, or more arguments than it takes');
  if (name === 'count') command = { name };
  else if (name === 'export') command = { name, confirmedOnly: values.confirmed === true };
  else if (name === 'stats') {
    const { days = String(DEFAULT_STATS_DAYS) } = values;
    const problem = `--days needs a whole number of days from 1 to ${MAX_STATS_DAYS}`;
    command = { name, days: numberOption(days, true, problem, 1, MAX_STATS_DAYS) };
  } else if (name === 'forget' || name === 'show') {
    if (!argument?.trim()) throw new UsageError(`${name} needs one address`);
    command = { name, address: argument.trim() };
  } else if (name === 'announce') {
    if (!argument) throw new UsageError('announce needs one folder');
    if (values.send && values['test-to'] !== undefined)
      throw new UsageError('use either --send or --test-to, not both');
    if (values['resend-unknown'] && !values.send) throw new UsageError('--resend-unknown needs --send');
    if (values.stop && (values.send || values['test-to'] !== undefined))
      throw new UsageError('--stop stops a send: it takes neither --send nor --test-to');
    const { rate } = values;
    const problem = `--rate needs a number of mails per second, ${MIN_ANNOUNCEMENT_RATE} at least`;
    command = {
      name,
      folder: argument,
      send: values.send === true,
      resendUnknown: values['resend-unknown'],
      stop: values.stop,
      testTo: values['test-to'],
      rate: rate === undefined ? undefined : numberOption(rate, false, problem, MIN_ANNOUNCEMENT_RATE),
      previewDir: values.preview,
    };
  } else if (name === 'smoke') {
    const site = URL.canParse(argument ?? '') ? new URL(argument as string) : undefined;
    if (!site || !/^https?:$/.test(site.protocol)) throw new UsageError('smoke needs the site’s URL');
    command = { name, site };
  } else if (name === 'preflight') command = { name, region: values.region || undefined };
  // Not echoed: what was typed may be an address.
  else throw new UsageError(name ? 'unknown command, or more arguments than it takes' : 'no command');

  for (const [option, { only }] of Object.entries<{ type: string; only?: string }>(OPTIONS))
    if (only && only !== command.name && values[option as keyof typeof values] !== undefined)
      throw new UsageError(`--${option} applies to ${only} only`);
  if (command.name === 'preflight' && (values.table !== undefined || values['data-dir'] !== undefined))
    throw new UsageError('preflight finds the stack itself: it takes --region only');
  if (values.table !== undefined) {
    if (!values.table) throw new UsageError('--table needs a table name');
    if (values['data-dir'] !== undefined) throw new UsageError('use either --table or --data-dir, not both');
    return { command, target: { kind: 'aws', tableName: values.table, region: values.region || undefined } };
  }
  if (values.region !== undefined && command.name !== 'preflight')
    throw new UsageError('--region applies to --table only');
  return {
    command,
    target: { kind: 'local', dataDir: dataDirFromEnvironment(values['data-dir'] ?? process.env.DATA_DIR) },
  };
}

/** One sentence the operator can act on; never a stack trace. */
function explain(error: unknown, target: WaitlistTarget, table: WaitlistTable | undefined): string {
  if (error instanceof WaitlistToolError || error instanceof AnnouncementError) return error.message;
  const where = table?.where ?? (target.kind === 'aws' ? 'AWS' : `the local store in ${target.dataDir}`);
  const tableName = table?.tableName ?? (target.kind === 'aws' ? target.tableName : 'the waitlist table');
  if (error instanceof ResourceNotFoundException) return `there is no table ${tableName} in ${where}`;
  const fault = faultClassOf(error);
  const name = errorNameOf(error);
  if (name === 'CredentialsProviderError')
    return 'no AWS credentials found (use aws configure, AWS_PROFILE or the AWS_* environment variables)';
  if (name === 'AccessDeniedException') return `these AWS credentials may not use ${tableName} (${name})`;
  if (fault === 'access_denied') return `AWS did not allow it with these credentials (${name})`;
  if (fault === 'network' || fault === 'timeout')
    return `could not reach DynamoDB in ${where} (${name}); check --region`;
  const { message = '' } = (error ?? {}) as { message?: string };
  return `${name}: ${message.split('\n')[0]}`;
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
      process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
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
    console.error(`waitlist: ${explain(error, request.target, table)}`);
    return 1;
  } finally {
    await table?.close().catch(() => {});
  }
}

// Let the event loop end by itself, so the CSV written to a pipe is flushed in full.
process.exitCode = await main(process.argv.slice(2));
