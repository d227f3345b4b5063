import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { announcementProgressKey, announcementStateKey } from '#contract/announcement-keys';
import { LOCALES, type Locale } from '#contract/locales';
import { readSiteConfig } from '#contract/site-config';
import { stopPass } from '../functions/announce/announcement-batch';
import {
  newPassState,
  type Progress,
  processedTotal,
  progressSchema,
  type RecipientMessage,
  stateSchema,
} from '../functions/announce/announcement-state';
import { type Announcement, readAnnouncement } from '../functions/announce/announcement-text';
import {
  type AudienceCount,
  addCounts,
  audiencePages,
  countAudience,
  countedTotal,
  emptyCount,
  type SkipReason,
} from '../functions/announce/audience';
import { announcementFor } from '../functions/announce/deliver-announcement';
import { mailboxAddress, senderDomain } from '../functions/mailer/mail-layout';
import { quotaReserve } from '../functions/mailer/mail-pause';
import { outboxTransport, sesTransport } from '../functions/mailer/mail-transport';
import { sendUntilNotThrottled } from '../functions/mailer/pace';
import { errorNameOf } from '../functions/telemetry/fault-class';
import { localMailer } from '../local/local-mail';
import { type ProgressBar, progressBar } from './announce-progress';
import { STACK_NAME } from './preflight-launch';
import type { WaitlistTable, WaitlistTarget } from './waitlist-store-access';

/**
 * `npm run waitlist -- announce <folder> [--test-to ADDRESS] [--send] [--rate N]`: the launch mail.
 * Without --send a dry run (previews and who would get it); --test-to one mail per language to one
 * address; --send everyone owed it, paced, by the one mailer of every mail (functions/mailer/mail-sender.ts).
 * With --table the tool queues one message per person for it in AWS and follows the send, which goes on
 * whether or not the operator's laptop stays awake; locally it hands them to it in this process.
 */
export interface AnnounceRequest {
  folder: string;
  testTo?: string;
  send: boolean;
  /** --resend-unknown: sends an earlier run left unknown go again (their people may get it twice). */
  resendUnknown?: boolean;
  /** --stop: the send under way sends none of its remaining mails. */
  stop?: boolean;
  rate?: number;
  previewDir?: string;
}

export interface AnnounceIo {
  out: (text: string) => void;
  /** Ctrl-C: stops starting new mails (with --table: stops queueing, or following). */
  signal: AbortSignal;
  progress?: NodeJS.WriteStream;
}

const REASON_WORDS: Record<SkipReason, string> = {
  pending: 'pending',
  bounced: 'bounced',
  complained: 'complained',
  already: 'already sent this announcement',
  unknown: 'unknown (a send whose outcome a crash or a lost answer left unknown: not sent again)',
};

const perLanguage = (counts: Record<Locale, number>) =>
  LOCALES.map((language) => `${language} ${counts[language]}`).join(', ');
const skippedLine = (skipped: Record<SkipReason, number>) =>
  `Skipped: ${(Object.keys(REASON_WORDS) as SkipReason[]).map((reason) => `${REASON_WORDS[reason]} ${skipped[reason]}`).join(', ')}`;

/**
 * The sender's identity and the site the leave links lead to, from the MANDJE_* variables (#contract/site-config):
 * on AWS the site's address; on this machine the runner's, unless MANDJE_SITE_URL names one.
 */
function senderSettings(target: WaitlistTarget) {
  const site = readSiteConfig(process.env);
  const localSite = `http://localhost:${process.env.PORT ?? 3000}`;
  return {
    mailFrom: site.mailFrom,
    contactEmail: site.contactEmail,
    brandName: site.brandName,
    siteUrl: target.kind === 'aws' || process.env.MANDJE_SITE_URL ? site.siteUrl : localSite,
  };
}

/** Mail on this machine: the runner's outbox. */
const localTransport = (dataDir: string) => outboxTransport(join(dataDir, 'outbox'), { print: () => {} });

export class AnnounceError extends Error {
  override name = 'WaitlistToolError';
}

/** SES's sending quota for the account, as GetAccount reads it. */
async function sesSendQuota(target: WaitlistTarget & { kind: 'aws' }) {
  const ses = new SESv2Client(target.region ? { region: target.region } : {});
  try {
    const { SendQuota } = await ses.send(new GetAccountCommand({}));
    return SendQuota ?? {};
  } finally {
    ses.destroy();
  }
}

/** SES's quota for 24 hours (Max24HourSend -1: none), and what went in the last 24 hours. */
export interface DayQuota {
  max24HourSend: number;
  sentLast24Hours: number;
}

/**
 * Days the announcement needs for `owed` people at SES's quota, as the mailer sends it: each day's quota
 * less the reserve it keeps for confirmations, today's less what went in the last 24 hours already.
 */
export function daysNeeded(owed: number, quota: DayQuota): number {
  if (owed === 0 || quota.max24HourSend < 0) return owed === 0 ? 0 : 1;
  const perDay = quota.max24HourSend - quotaReserve(quota.max24HourSend);
  return perDay > 0 ? Math.ceil((owed + quota.sentLast24Hours) / perDay) : Number.POSITIVE_INFINITY;
}

const figure = (value: number) => value.toLocaleString('en');

async function quotaLineOf(target: WaitlistTarget & { kind: 'aws' }, owed: number): Promise<string> {
  try {
    const { Max24HourSend, SentLast24Hours } = await sesSendQuota(target);
    if (Max24HourSend === undefined) return 'SES reports no quota a day.';
    return quotaLine(owed, { max24HourSend: Max24HourSend, sentLast24Hours: SentLast24Hours ?? 0 });
  } catch (error) {
    return `SES's quota could not be read (${errorNameOf(error)}): the send may take more than a day.`;
  }
}

/** The dry run's line on how long SES's quota makes the send take. */
export function quotaLine(owed: number, quota: DayQuota): string {
  if (quota.max24HourSend < 0) return 'SES sets this account no quota a day.';
  const days = daysNeeded(owed, quota);
  const need = Number.isFinite(days) ? `need ${figure(days)} day${days === 1 ? '' : 's'}` : 'cannot be sent';
  return `At today's SES quota (${figure(quota.max24HourSend)} a day) the ${figure(owed)} people owed ${need}; confirmations keep a reserve of ${figure(quotaReserve(quota.max24HourSend))} a day.`;
}

/** A leave link for previews and test mails: the right shape, leading to nobody. */
const nowhere = () => ({ linkId: 'A'.repeat(22), leaveKey: randomBytes(16).toString('base64url') });

export async function announce(
  table: WaitlistTable,
  target: WaitlistTarget,
  request: AnnounceRequest,
  io: AnnounceIo,
  /** On AWS: the bulk queue, when not the stack's own (tests). */
  queue?: AnnouncementQueue,
): Promise<number> {
  const announcement = await readAnnouncement(request.folder);
  const settings = senderSettings(target);
  if (request.testTo !== undefined) return sendTests(announcement, request.testTo, target, settings, io);
  if (request.stop) return stopSend(table, announcement.id, io);
  if (!request.send) return dryRun(table, target, announcement, request, settings, io);
  // Without --rate, as fast as the mailer's pace lets: its share of SES's maximum send rate (locally, none).
  const rate = request.rate ?? Number.POSITIVE_INFINITY;
  const resendUnknown = request.resendUnknown === true;
  const send =
    target.kind === 'aws'
      ? sqsQueue(queue ?? (await queueOf(target)))
      : localQueue(table, settings, target.dataDir, io);
  return queueAndFollow(
    table,
    announcement,
    { rate, resendUnknown },
    { send, inAws: target.kind === 'aws' },
    io,
  );
}

async function dryRun(
  table: WaitlistTable,
  target: WaitlistTarget,
  announcement: Announcement,
  request: AnnounceRequest,
  settings: ReturnType<typeof senderSettings>,
  io: AnnounceIo,
): Promise<number> {
  const previewDir = resolve(request.previewDir ?? join(request.folder, 'preview'));
  await mkdir(previewDir, { recursive: true });
  const files: string[] = [];
  for (const language of LOCALES) {
    const mail = announcementFor(settings, announcement, {
      key: 'preview',
      to: language === 'nl' ? 'voorbeeld@example.com' : 'example@example.com',
      language,
      ...nowhere(),
    });
    const file = join(previewDir, `${language}.eml`);
    await writeFile(file, mail.raw, { mode: 0o600 });
    files.push(file);
  }
  const count = await countAudience(table, announcement.id);
  const owed = countedTotal(count.send);
  io.out(
    [
      `Announcement ${announcement.id}: previews in ${files.join(' and ')}`,
      `Would send to ${owed} confirmed people: ${perLanguage(count.send)}`,
      // On AWS only: on one machine no quota holds the send back.
      ...(target.kind === 'aws' ? [await quotaLineOf(target, owed)] : []),
      skippedLine(count.skipped),
      'Nothing was sent (a dry run): --test-to ADDRESS sends one mail per language to you, --send to everyone.',
      '',
    ].join('\n'),
  );
  return 0;
}

async function sendTests(
  announcement: Announcement,
  address: string,
  target: WaitlistTarget,
  settings: ReturnType<typeof senderSettings>,
  io: AnnounceIo,
): Promise<number> {
  try {
    mailboxAddress(address);
  } catch {
    throw new AnnounceError('--test-to needs a deliverable address');
  }
  const transport =
    target.kind === 'aws' ? sesTransport(process.env.SES_CONFIGURATION_SET) : localTransport(target.dataDir);
  for (const language of LOCALES) {
    // A Message-ID of its own: a test is not the announcement, and a second test is a second mail.
    const messageId = `${announcement.id}.test-${language}-${randomBytes(4).toString('hex')}@${senderDomain(settings.mailFrom)}`;
    const mail = announcementFor(settings, announcement, {
      key: address,
      to: address,
      language,
      messageId,
      ...nowhere(),
    });
    // No pace for two mails; throttling is waited out all the same.
    await sendUntilNotThrottled(
      () => transport.send(mail),
      async () => {},
    );
  }
  io.out(
    `Sent the announcement ${announcement.id} in ${LOCALES.join(' and ')} to ${address}; no record was marked.\n`,
  );
  return 0;
}

function summary(
  sent: Record<Locale, number>,
  count: AudienceCount,
  { unrecorded, refused }: Progress,
  elapsedMs?: number,
): string {
  const total = countedTotal(sent);
  const unknown = count.skipped.unknown + unrecorded;
  const timing =
    elapsedMs === undefined || total === 0
      ? ''
      : ` in ${(elapsedMs / 1000).toFixed(1)} s (${((total * 1000) / elapsedMs).toFixed(1)} mails/s)`;
  return [
    `Sent ${total}: ${perLanguage(sent)}${timing}`,
    skippedLine({ ...count.skipped, unknown }),
    ...(refused > 0 ? [`Refused for good by the mail service, not sent again: ${refused}`] : []),
    ...(unknown > 0
      ? [
          `Each unknown send may or may not have reached its person. To send those ${unknown} anyway (some may get it twice), run the same command with --resend-unknown.`,
        ]
      : []),
    '',
  ].join('\n');
}

/**
 * Sends under way at once on this machine. Each holds its person's claim, and a crash (kill -9) leaves those
 * claims unknown: so at most this many. More would not be faster: the outbox's writes then only queue for
 * the disk (50 at once took 175 ms each where 3 took 16 ms, at about the same mails per second).
 */
const SENDS_IN_FLIGHT = 3;

/** The send stopped by Ctrl-C: the mails in flight went, the rest stay owed. */
class StoppedByCtrlC extends Error {}

/**
 * On one machine the recipients go straight to the mailer AWS runs (local/local-mail.ts), in this process,
 * a few at a time: a page is sent before the next is read. The first failure stops the send.
 */
function localQueue(
  table: WaitlistTable,
  settings: ReturnType<typeof senderSettings>,
  dataDir: string,
  { signal, out }: AnnounceIo,
): (messages: RecipientMessage[]) => Promise<void> {
  const send = localMailer({
    store: table,
    ...settings,
    transport: localTransport(dataDir),
    deadLetterDir: join(dataDir, 'dead-letters'),
    print: (line) => out(`${line}\n`),
  });
  return async (messages) => {
    for (let start = 0; start < messages.length; start += SENDS_IN_FLIGHT) {
      if (signal.aborted) throw new StoppedByCtrlC();
      const failed = await send(messages.slice(start, start + SENDS_IN_FLIGHT), signal);
      if (signal.aborted) throw new StoppedByCtrlC();
      if (failed > 0) throw new AnnounceError(`${failed} mail(s) could not be sent; the log above says why`);
    }
  };
}

const FOLLOW_EVERY_MS = 2_000;
const SQS_BATCH = 10;

async function readState(table: WaitlistTable, id: string) {
  const { Item } = await table.client.send(
    new GetCommand({
      TableName: table.tableName,
      Key: { email: announcementStateKey(id) },
      ConsistentRead: true,
    }),
  );
  if (!Item) return undefined;
  const parsed = stateSchema.safeParse(Item);
  if (!parsed.success) throw new AnnounceError(`the state item of ${id} in the table cannot be read`);
  return parsed.data;
}

async function readProgress(table: WaitlistTable, id: string, pass: number) {
  const { Item } = await table.client.send(
    new GetCommand({
      TableName: table.tableName,
      Key: { email: announcementProgressKey(id, pass) },
      ConsistentRead: true,
    }),
  );
  return progressSchema.parse(Item ?? {});
}

/** The bulk mail queue in AWS: the URL the stack `Mandje` gives as its output AnnouncementQueueUrl. */
export interface AnnouncementQueue {
  url: string;
  client: SQSClient;
}

async function queueOf(target: WaitlistTarget & { kind: 'aws' }): Promise<AnnouncementQueue> {
  const config = target.region ? { region: target.region } : {};
  const cloudFormation = new CloudFormationClient(config);
  try {
    const { Stacks: [stack] = [] } = await cloudFormation.send(
      new DescribeStacksCommand({ StackName: STACK_NAME }),
    );
    const url = stack?.Outputs?.find((output) => output.OutputKey === 'AnnouncementQueueUrl')?.OutputValue;
    if (!url) throw new AnnounceError(`the stack ${STACK_NAME} has no AnnouncementQueueUrl: deploy it again`);
    // The region's SQS endpoint, which is the queue URL's own host.
    return { url, client: new SQSClient({ ...config, useQueueUrlAsEndpoint: false }) };
  } finally {
    cloudFormation.destroy();
  }
}

/** Puts messages on the queue, ten to a call. */
const sqsQueue = (queue: AnnouncementQueue) => async (messages: RecipientMessage[]) => {
  for (let start = 0; start < messages.length; start += SQS_BATCH) {
    const batch = messages.slice(start, start + SQS_BATCH);
    const { Failed = [] } = await queue.client.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.url,
        Entries: batch.map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message) })),
      }),
    );
    if (Failed.length > 0)
      throw new AnnounceError(`the queue refused ${Failed.length} message(s): ${Failed[0]?.Code}`);
  }
};

/**
 * The send: a pass under way in AWS is followed; otherwise a new pass. For a new pass the tool writes the
 * announcement (texts, rate, pass) to the table and hands one message per person owed it to `send`: SQS's
 * bulk queue on AWS, where the mailer sends them and the tool follows its counts until every message is
 * done; on one machine the mailer itself (localQueue). A pass before it, still on the queue, is dropped by
 * the mailer as it comes: this pass holds everyone still owed.
 */
async function queueAndFollow(
  table: WaitlistTable,
  announcement: Announcement,
  { rate, resendUnknown }: { rate: number; resendUnknown: boolean },
  { send, inAws }: { send: (messages: RecipientMessage[]) => Promise<void>; inAws: boolean },
  io: AnnounceIo,
): Promise<number> {
  const { id } = announcement;
  const started = performance.now();
  const bar = progressBar(io.progress);
  const previous = await readState(table, id);
  // --resend-unknown is a pass of its own: it owes again what passes before it left unknown.
  if (inAws && previous?.queued && previous.stopReason === undefined && !resendUnknown) {
    const queued = previous.queued as AudienceCount;
    const progress = await readProgress(table, id, previous.pass);
    if (processedTotal(progress) < countedTotal(queued.send)) {
      io.out(`Following pass ${previous.pass} of ${id}, under way in AWS.\n`);
      return follow(table, id, previous.pass, queued, { bar, io, started, inAws });
    }
  }
  const pass = (previous?.pass ?? 0) + 1;
  const state = newPassState(announcement, { rate, pass, now: new Date(), resendUnknown });
  await table.client.send(
    new PutCommand({
      TableName: table.tableName,
      Item: state,
      ConditionExpression: previous ? 'pass = :previous' : 'attribute_not_exists(email)',
      ...(previous ? { ExpressionAttributeValues: { ':previous': previous.pass } } : {}),
    }),
  );
  const count = emptyCount();
  try {
    for await (const page of audiencePages(table, id, { resendUnknownBefore: state.resendUnknownBefore })) {
      if (io.signal.aborted) throw new StoppedByCtrlC();
      await send(page.recipients.map(({ key }) => ({ id, pass, key })));
      addCounts(count, page.count);
      bar.update(countedTotal(sentOf(await readProgress(table, id, pass))), countedTotal(count.send));
    }
  } catch (error) {
    bar.finish();
    if (error instanceof StoppedByCtrlC && inAws) {
      io.out(
        `Stopped queueing by Ctrl-C: AWS sends it to the ${countedTotal(count.send)} people queued. The same command again queues everyone still owed.\n`,
      );
      return 130;
    }
    const progress = await readProgress(table, id, pass).catch(() => undefined);
    if (progress) io.out(summary(sentOf(progress), count, progress));
    const again = 'Run the same command again to send the rest.';
    if (error instanceof StoppedByCtrlC) io.out(`Stopped by Ctrl-C after the mails in flight. ${again}\n`);
    else
      io.out(
        `Stopped: ${errorNameOf(error)}: ${String((error as Error).message).split('\n')[0]}. ${again}\n`,
      );
    return error instanceof StoppedByCtrlC ? 130 : 1;
  }
  await table.client
    .send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: { email: announcementStateKey(id) },
        UpdateExpression: 'SET queued = :queued',
        ConditionExpression: 'pass = :pass',
        ExpressionAttributeValues: { ':queued': count, ':pass': pass },
      }),
    )
    .catch((error: unknown) => {
      // A newer pass took over meanwhile: following says so.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    });
  if (inAws)
    io.out(
      `Queued pass ${pass} of ${id} in AWS: ${countedTotal(count.send)} people, ${Number.isFinite(rate) ? `at most ${rate} mails/s` : "at SES's rate"}.\n`,
    );
  return follow(table, id, pass, count, { bar, io, started, inAws });
}

const sentOf = (progress: Progress) => ({ nl: progress.sent_nl, en: progress.sent_en });

/**
 * Follows the mailer's counts of a pass until every message it queued is done, or the pass stopped; on one
 * machine the mailer is done already, and they are read once.
 */
async function follow(
  table: WaitlistTable,
  id: string,
  pass: number,
  queued: AudienceCount,
  { bar, io, started, inAws }: { bar: ProgressBar; io: AnnounceIo; started: number; inAws: boolean },
): Promise<number> {
  const planned = countedTotal(queued.send);
  for (;;) {
    const current = await readState(table, id);
    const progress = await readProgress(table, id, pass);
    bar.update(countedTotal(sentOf(progress)), planned);
    if (current?.pass !== pass) {
      bar.finish();
      io.out(`A newer pass of ${id} took over; it sends to whoever is still owed.\n`);
      return 0;
    }
    if (current.stopReason !== undefined || processedTotal(progress) >= planned || !inAws) {
      bar.finish();
      io.out(summary(sentOf(progress), queued, progress, performance.now() - started));
      if (progress.failed > 0)
        io.out(`Failed attempts: ${progress.failed} (retried from the queue; see its dead-letter queue)\n`);
      if (current.stopReason === undefined) return 0;
      io.out(`Stopped: ${current.stopReason}. Run the same command again to send the rest.\n`);
      return 1;
    }
    try {
      await delay(FOLLOW_EVERY_MS, undefined, { signal: io.signal });
    } catch {
      bar.finish();
      io.out(
        'Stopped following; the send goes on in AWS. Run the same command again to follow it, or with --stop to stop it.\n',
      );
      return 0;
    }
  }
}

/** `--stop`: the pass under way sends none of its remaining mails (the mailer reads it within seconds). */
async function stopSend(table: WaitlistTable, id: string, io: AnnounceIo): Promise<number> {
  const state = await readState(table, id);
  if (!state) throw new AnnounceError(`there is no send of ${id} to stop`);
  await stopPass(table, state, 'stopped by the operator');
  io.out(
    `Stopped pass ${state.pass} of ${id}: none of its remaining mails is sent. --send later sends to whoever is still owed.\n`,
  );
  return 0;
}
