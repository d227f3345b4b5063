import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { announcementProgressKey, announcementStateKey } from '#contract/announcement-keys';
import { emailKey } from '#contract/email-address';
import { LOCALES, type Locale } from '#contract/locales';
import { readSiteConfig, type SiteConfig } from '#contract/site-config';
import { announcementFor, stopPass } from '../functions/announce/announcement-batch';
import * as passes from '../functions/announce/announcement-state';
import { type Announcement, readAnnouncement } from '../functions/announce/announcement-text';
import * as audience from '../functions/announce/audience';
import { senderDomain } from '../functions/mailer/mail-layout';
import { quotaReserve } from '../functions/mailer/mail-pause';
import { sendUntilNotThrottled } from '../functions/mailer/mail-sender';
import { sesTransport } from '../functions/mailer/mail-transport';
import { readItem, updateIf, type WaitlistStore } from '../functions/store/store-client';
import { errorNameOf } from '../functions/telemetry/fault-class';
import { localMailer, outboxTransport } from '../local/local-mail';
import { LOCAL_MAIL_LIMIT_TABLE_NAME } from '../local/local-store-client';
import type { WaitlistTable, WaitlistTarget } from './waitlist-store-access';
import * as access from './waitlist-store-access';

export interface AnnounceRequest {
  folder: string;
  testTo?: string;
  send: boolean;
  resendUnknown?: boolean;
  stop?: boolean;
  rate?: number;
  previewDir?: string;
}

/** `signal` is Ctrl-C: it stops starting new mails (with --table: stops queueing, or following). */
type AnnounceIo = { out: (text: string) => void; signal: AbortSignal; progress?: NodeJS.WriteStream };
/** What the tool uses of the stack: its bulk mail queue, and the mail limit's table it reads suppressions in. */
type AwsStack = { queue: { url: string; client: SQSClient }; limitTableName: string };
type Send = (messages: passes.RecipientMessage[]) => Promise<void>;
type AudienceCount = audience.AudienceCount;
const { countedTotal } = audience;

interface Run {
  table: WaitlistTable;
  /** The mail limit's table: the mailboxes that bounced or complained, under any spelling. */
  limits: WaitlistStore;
  target: WaitlistTarget;
  io: AnnounceIo;
  announcement: Announcement;
  settings: SiteConfig;
}

const REASON_WORDS: Partial<Record<audience.SkipReason, string>> = {
  already: 'already sent this announcement',
  unknown: 'unknown (a send whose outcome a crash or a lost answer left unknown: not sent again)',
};

const perLanguage = (counts: Record<Locale, number>) =>
  LOCALES.map((language) => `${language} ${counts[language]}`).join(', ');
const skippedLine = (skipped: Record<audience.SkipReason, number>) =>
  `Skipped: ${audience.SKIP_REASONS.map((reason) => `${REASON_WORDS[reason] ?? reason} ${skipped[reason]}`).join(', ')}`;
const sentOf = (progress: passes.Progress) => ({ nl: progress.sent_nl, en: progress.sent_en });
export const figure = (value: number) => value.toLocaleString('en');
const localTransport = (dataDir: string) => outboxTransport(join(dataDir, 'outbox'), { print: () => {} });
/** A leave link for previews and test mails: the right shape, leading to nobody. */
const nowhere = () => ({ linkId: 'A'.repeat(22), leaveKey: randomBytes(16).toString('base64url') });

/** Days `owed` people take: each day's SES quota (-1: none) less the confirmations' reserve. */
export function daysNeeded(owed: number, quota: { max24HourSend: number; sentLast24Hours: number }): number {
  if (owed === 0 || quota.max24HourSend < 0) return owed === 0 ? 0 : 1;
  const perDay = quota.max24HourSend - quotaReserve(quota.max24HourSend);
  return perDay > 0 ? Math.ceil((owed + quota.sentLast24Hours) / perDay) : Number.POSITIVE_INFINITY;
}

async function quotaLineOf(region: string | undefined, owed: number): Promise<string> {
  const ses = new SESv2Client({ region });
  const account = await ses
    .send(new GetAccountCommand({}))
    .catch((error: Error) => error)
    .finally(() => ses.destroy());
  if (account instanceof Error)
    return `SES's quota could not be read (${errorNameOf(account)}): the send may take more than a day.`;
  const { Max24HourSend: max = -1, SentLast24Hours = 0 } = account.SendQuota ?? {};
  if (max < 0) return 'SES sets this account no quota a day.';
  const days = daysNeeded(owed, { max24HourSend: max, sentLast24Hours: SentLast24Hours });
  const need = Number.isFinite(days) ? `need ${figure(days)} day${days === 1 ? '' : 's'}` : 'cannot be sent';
  return `At today's SES quota (${figure(max)} a day) the ${figure(owed)} people owed ${need}; confirmations keep a reserve of ${figure(quotaReserve(max))} a day.`;
}

export async function announce(
  table: WaitlistTable,
  target: WaitlistTarget,
  request: AnnounceRequest,
  io: AnnounceIo,
  aws?: AwsStack, // on AWS, when not the stack's own (tests)
): Promise<number> {
  const announcement = await readAnnouncement(request.folder);
  const settings = readSiteConfig(process.env);
  // On this machine the leave links lead to the runner, unless MANDJE_SITE_URL names a site.
  if (target.kind === 'local' && !process.env.MANDJE_SITE_URL)
    settings.siteUrl = `http://localhost:${process.env.PORT ?? 3000}`;
  const limits = { client: table.client, tableName: LOCAL_MAIL_LIMIT_TABLE_NAME };
  const run: Run = { table, limits, target, io, announcement, settings };
  if (request.testTo !== undefined) return sendTests(run, request.testTo);
  if (request.stop) return stopSend(run);
  if (target.kind === 'aws') {
    const stack = aws ?? (await awsStackOf(target.region));
    limits.tableName = stack.limitTableName;
    if (request.send) return queueAndFollow(run, request, sqsQueue(stack.queue));
  } else if (request.send) return queueAndFollow(run, request, localQueue(run, target.dataDir));
  return dryRun(run, request);
}

async function dryRun({ table, limits, target, announcement, settings, io }: Run, request: AnnounceRequest) {
  const fileOf = (language: Locale) =>
    resolve(request.previewDir ?? join(request.folder, 'preview'), `${language}.eml`);
  await mkdir(dirname(fileOf('nl')), { recursive: true });
  for (const language of LOCALES) {
    const to = language === 'nl' ? 'voorbeeld@example.com' : 'example@example.com';
    const mail = announcementFor(settings, announcement, { key: 'preview', to, language, ...nowhere() });
    await writeFile(fileOf(language), mail.raw, { mode: 0o600 });
  }
  const count = await audience.countAudience(table, limits, announcement.id);
  const owed = countedTotal(count.send);
  io.out(
    [
      `Announcement ${announcement.id}: previews in ${LOCALES.map(fileOf).join(' and ')}`,
      `Would send to ${owed} confirmed people: ${perLanguage(count.send)}`,
      // On one machine no quota holds the send back.
      ...(target.kind === 'aws' ? [await quotaLineOf(target.region, owed)] : []),
      skippedLine(count.skipped),
      'Nothing was sent (a dry run): --test-to ADDRESS sends one mail per language to you, --send to everyone.',
      '',
    ].join('\n'),
  );
  return 0;
}

async function sendTests({ announcement: { id }, announcement, target, settings, io }: Run, address: string) {
  if (!emailKey(address)) throw new access.WaitlistToolError('--test-to needs a deliverable address');
  const transport =
    target.kind === 'aws' ? sesTransport(process.env.SES_CONFIGURATION_SET) : localTransport(target.dataDir);
  for (const language of LOCALES) {
    // Its own Message-ID: a test is not the announcement, and a second test is a second mail.
    const test = `${id}.test-${language}-${randomBytes(4).toString('hex')}`;
    const messageId = `${test}@${senderDomain(settings.mailFrom)}`;
    const person = { key: address, to: address, language, messageId, ...nowhere() };
    const mail = announcementFor(settings, announcement, person);
    // No pace for two test mails; throttling is waited out all the same.
    await sendUntilNotThrottled(
      () => transport.send(mail),
      async () => {},
    );
  }
  io.out(`Sent the announcement ${id} in ${LOCALES.join(' and ')} to ${address}; no record was marked.\n`);
  return 0;
}

function summary(progress: passes.Progress, count: AudienceCount, elapsedMs?: number): string {
  const sent = sentOf(progress);
  const total = countedTotal(sent);
  const unknown = count.skipped.unknown + progress.unrecorded;
  const timing =
    elapsedMs === undefined || total === 0
      ? ''
      : ` in ${(elapsedMs / 1000).toFixed(1)} s (${((total * 1000) / elapsedMs).toFixed(1)} mails/s)`;
  const lines = [`Sent ${total}: ${perLanguage(sent)}${timing}`, skippedLine({ ...count.skipped, unknown })];
  if (progress.refused > 0)
    lines.push(`Refused for good by the mail service, not sent again: ${progress.refused}`);
  if (unknown > 0)
    lines.push(
      `Each unknown send may or may not have reached its person. To send those ${unknown} anyway (some may get it twice), run the same command with --resend-unknown.`,
    );
  return `${lines.join('\n')}\n`;
}

// At most this many unknown after a crash; more are not faster, as the outbox's writes only queue for the disk.
const SENDS_IN_FLIGHT = 3;

/** On one machine the mailer runs in this process, a page at a time; the first failure stops the send. */
function localQueue({ table, settings, io: { signal, out } }: Run, dataDir: string): Send {
  const send = localMailer({
    store: table,
    ...settings,
    transport: localTransport(dataDir),
    deadLetterDir: join(dataDir, 'dead-letters'),
    print: (line) => out(`${line}\n`),
  });
  return async (messages) => {
    for (let start = 0; start < messages.length; start += SENDS_IN_FLIGHT) {
      signal.throwIfAborted();
      const failed = await send(messages.slice(start, start + SENDS_IN_FLIGHT), signal);
      signal.throwIfAborted();
      if (failed > 0)
        throw new access.WaitlistToolError(`${failed} mail(s) could not be sent; the log above says why`);
    }
  };
}

const sqsQueue =
  (queue: AwsStack['queue']): Send =>
  async (messages) => {
    for (let start = 0; start < messages.length; start += 10) {
      const Entries = messages
        .slice(start, start + 10)
        .map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message) }));
      const batch = new SendMessageBatchCommand({ QueueUrl: queue.url, Entries });
      const { Failed = [] } = await queue.client.send(batch);
      if (Failed.length > 0)
        throw new access.WaitlistToolError(
          `the queue refused ${Failed.length} message(s): ${Failed[0]?.Code}`,
        );
    }
  };

async function awsStackOf(region: string | undefined): Promise<AwsStack> {
  const cloudFormation = new CloudFormationClient({ region });
  const { outputs } = await access.describeStack(cloudFormation).finally(() => cloudFormation.destroy());
  const [url, limitTableName] = ['AnnouncementQueueUrl', 'MailLimitTableName'].map((name) => {
    if (!outputs[name])
      throw new access.WaitlistToolError(`the stack ${access.STACK_NAME} has no ${name}: deploy it again`);
    return String(outputs[name]);
  }) as [string, string];
  // The region's SQS endpoint, which is the queue URL's own host.
  return { queue: { url, client: new SQSClient({ region, useQueueUrlAsEndpoint: false }) }, limitTableName };
}

async function readState(table: WaitlistTable, id: string) {
  const item = await readItem(table, { email: announcementStateKey(id) });
  return item && passes.stateSchema.parse(item);
}

const readProgress = async (table: WaitlistTable, id: string, pass: number) =>
  passes.progressSchema.parse((await readItem(table, { email: announcementProgressKey(id, pass) })) ?? {});

// A pass under way in AWS is followed; otherwise a new pass holds everyone still owed (the mailer drops an
// older pass's messages still on the queue).
async function queueAndFollow(run: Run, request: AnnounceRequest, send: Send): Promise<number> {
  const { table, announcement, io } = run;
  const { id } = announcement;
  const inAws = run.target.kind === 'aws';
  // Without --rate, as fast as the mailer's pace lets: its share of SES's maximum send rate (locally, none).
  const rate = request.rate ?? Number.POSITIVE_INFINITY;
  const resendUnknown = request.resendUnknown === true;
  const bar = progressLine(io.progress);
  const previous = await readState(table, id);
  // --resend-unknown is a pass of its own: it owes again what passes before it left unknown.
  if (inAws && previous?.queued && previous.stopReason === undefined && !resendUnknown) {
    const queued = previous.queued as AudienceCount;
    const progress = await readProgress(table, id, previous.pass);
    if (passes.processedTotal(progress) < countedTotal(queued.send)) {
      io.out(`Following pass ${previous.pass} of ${id}, under way in AWS.\n`);
      return follow(run, previous.pass, queued, bar);
    }
  }
  const pass = (previous?.pass ?? 0) + 1;
  const state = passes.newPassState(announcement, { rate, pass, now: new Date(), resendUnknown });
  await table.client.send(
    new PutCommand({
      TableName: table.tableName,
      Item: state,
      ConditionExpression: previous ? 'pass = :previous' : 'attribute_not_exists(email)',
      ...(previous ? { ExpressionAttributeValues: { ':previous': previous.pass } } : {}),
    }),
  );
  const count = audience.emptyCount();
  try {
    const resendUnknownBefore = state.resendUnknownBefore;
    for await (const page of audience.audiencePages(table, run.limits, id, { resendUnknownBefore })) {
      io.signal.throwIfAborted();
      await send(page.recipients.map(({ key }) => ({ id, pass, key })));
      audience.addCounts(count, page.count);
      bar.update(countedTotal(sentOf(await readProgress(table, id, pass))), countedTotal(count.send));
    }
  } catch (error) {
    const byCtrlC = io.signal.aborted;
    const again = 'Run the same command again to send the rest.';
    if (byCtrlC && inAws)
      io.out(
        `Stopped queueing by Ctrl-C: AWS sends it to the ${countedTotal(count.send)} people queued. ${again}\n`,
      );
    else {
      const progress = await readProgress(table, id, pass).catch(() => undefined);
      const why = byCtrlC
        ? 'by Ctrl-C after the mails in flight'
        : `: ${errorNameOf(error)}: ${String((error as Error).message).split('\n')[0]}`;
      io.out(`${progress ? summary(progress, count) : ''}Stopped${why}. ${again}\n`);
    }
    return byCtrlC ? 130 : 1;
  }
  // A newer pass may have taken over meanwhile: following says so.
  await updateIf(table, announcementStateKey(id), {
    UpdateExpression: 'SET queued = :queued',
    ConditionExpression: 'pass = :pass',
    ExpressionAttributeValues: { ':queued': count, ':pass': pass },
  });
  const pace = Number.isFinite(rate) ? `at most ${rate} mails/s` : "at SES's rate";
  if (inAws) io.out(`Queued pass ${pass} of ${id} in AWS: ${countedTotal(count.send)} people, ${pace}.\n`);
  return follow(run, pass, count, bar);
}

/** Follows a pass's counts until it is done or stopped; on one machine the mailer is done already. */
async function follow(run: Run, pass: number, queued: AudienceCount, bar: ReturnType<typeof progressLine>) {
  const { table, io } = run;
  const { id } = run.announcement;
  const planned = countedTotal(queued.send);
  for (;;) {
    const current = await readState(table, id);
    const progress = await readProgress(table, id, pass);
    bar.update(countedTotal(sentOf(progress)), planned);
    if (current?.pass !== pass) {
      io.out(`A newer pass of ${id} took over; it sends to whoever is still owed.\n`);
      return 0;
    }
    const done = passes.processedTotal(progress) >= planned || run.target.kind === 'local';
    if (current.stopReason !== undefined || done) {
      io.out(summary(progress, queued, bar.elapsed()));
      if (progress.failed > 0)
        io.out(`Failed attempts: ${progress.failed} (retried from the queue; see its dead-letter queue)\n`);
      if (current.stopReason === undefined) return 0;
      io.out(`Stopped: ${current.stopReason}. Run the same command again to send the rest.\n`);
      return 1;
    }
    const stopped = await delay(2_000, false, { signal: io.signal }).catch(() => true);
    if (stopped) {
      io.out(
        'Stopped following; the send goes on in AWS. Run the same command again to follow it, or with --stop to stop it.\n',
      );
      return 0;
    }
  }
}

/** `--stop`: the mailer reads it within seconds. */
async function stopSend({ table, announcement: { id }, io }: Run): Promise<number> {
  const state = await readState(table, id);
  if (!state) throw new access.WaitlistToolError(`there is no send of ${id} to stop`);
  await stopPass(table, state, 'stopped by the operator');
  io.out(
    `Stopped pass ${state.pass} of ${id}: none of its remaining mails is sent. --send later sends to whoever is still owed.\n`,
  );
  return 0;
}

/** The send's progress on stderr: a line every 5 s, and at the end. */
function progressLine(stream: NodeJS.WriteStream = process.stderr) {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  let printed = Number.NEGATIVE_INFINITY;
  return {
    elapsed,
    update(done: number, total: number) {
      if (performance.now() - printed < 5_000 && done !== total) return;
      printed = performance.now();
      stream.write(`${done}/${total} sent, ${((done * 1000) / Math.max(1, elapsed())).toFixed(1)} mails/s\n`);
    },
  };
}
