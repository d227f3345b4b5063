import { ReceiveMessageCommand, SetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_LIMIT_TABLE_KEY } from '#contract/abuse-limits';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import type { SesFault } from './aws-emulators';
import {
  type ProductionPath,
  seedConfirmed,
  startAnnouncement,
  startProductionPath,
} from './production-path';

/**
 * Faults of the account's set-up, as SES answers them: the sending domain not verified yet (or the
 * sandbox), access denied, the day's quota spent. Each pauses the sending with an alarm's metric, keeps
 * every mail owed, and sending resumes by itself once the cause is gone.
 */

let path: ProductionPath;
beforeAll(async () => {
  path = await startProductionPath();
});
afterAll(async () => {
  await path?.stop();
});

const mailerId = () => path.stack.only('AWS::Lambda::Function', 'MailerHandler');
const deadLetters = () => path.queueDepth(path.stack.only('AWS::SQS::Queue', 'MailQueuesDeadLetterQueue'));
const mailsTo = (email: string) =>
  path.aws.ses.sent.filter((mail) => mail.to.some((to) => to.includes(email))).length;
const signUp = (email: string, language: string) =>
  path.api('POST', WAITLIST_PATH, { body: JSON.stringify({ email, language }) });
const paused = () => path.logs.filter(({ line }) => line.includes('"MailPaused":1')).length;

/** The cause is gone: the pause's end and the queue's wait are skipped rather than waited out. */
async function timePasses() {
  const Key = { [MAIL_LIMIT_TABLE_KEY.name]: '#pause' };
  await path.db.send(new DeleteCommand({ TableName: path.limitTableName, Key }));
  // Each instance reads the pause at most every five seconds.
  await new Promise((done) => setTimeout(done, 5_500));
  await path.sources.endVisibilityTimeouts();
}

describe('a fault of the set-up stops the sending and loses nobody', () => {
  it.each<{ kind: SesFault['kind']; what: string }>([
    { kind: 'not-verified', what: 'the sending domain not verified yet (or the SES sandbox)' },
    { kind: 'access-denied', what: 'SES denying the account' },
    { kind: 'daily-quota', what: 'the day’s quota spent' },
  ])('pauses on $what, keeps every confirmation owed, and sends them once it is fixed', async ({ kind }) => {
    path.aws.ses.fault = { kind } as SesFault;
    const pausesBefore = paused();
    const people = [0, 1, 2].map((index) => `${kind}${index}@example.org`);
    for (const email of people) expect((await signUp(email, 'nl')).statusCode).toBe(201);
    await path.until('the mailer pauses', () => paused() > pausesBefore);
    await new Promise((done) => setTimeout(done, 2_000));
    for (const email of people) {
      const record = await path.record(email);
      expect(record?.status).toBe('pending');
      expect(record?.mailedRequestId).toBeUndefined();
    }
    expect(await deadLetters()).toEqual({ visible: 0, invisible: 0 });
    // Paused, not sent: none of them has a mail yet.
    expect(people.map(mailsTo)).toEqual([0, 0, 0]);

    path.aws.ses.fault = undefined;
    await timePasses();
    await path.until('every confirmation is sent once', () => people.every((email) => mailsTo(email) === 1));
    expect(await deadLetters()).toEqual({ visible: 0, invisible: 0 });
  });

  it('keeps room in the day’s quota for confirmations while an announcement waits for the next day', async () => {
    const people = await seedConfirmed(path, 300, 'quota.example');
    // 250 more mails today, 25 of them kept for confirmations; a new instance reads the account.
    const quota = path.aws.ses.sent.length + 250;
    path.aws.ses.quota = { Max24HourSend: quota, MaxSendRate: 100 };
    await path.functions.get(mailerId())?.stop();
    const reserveHolds = () => path.logs.filter(({ line }) => line.includes('"DailyQuotaReserve"')).length;
    const holdsBefore = reserveHolds();
    const sending = startAnnouncement(path, 'quota');
    const announced = () => people.filter((email) => mailsTo(email) > 0).length;
    await path.until(
      'the announcement holds back for the reserve',
      () => announced() > 0 && reserveHolds() > holdsBefore,
    );
    await new Promise((done) => setTimeout(done, 8_000));
    const beforeReserve = announced();
    // Never into the reserve: the mailer's bound on what went covers every instance.
    expect(path.aws.ses.sent.length).toBeLessThanOrEqual(quota - 25);

    // A signup meanwhile is confirmed from the reserve.
    expect((await signUp('late@example.org', 'en')).statusCode).toBe(201);
    await path.until('the late signup is mailed', () => mailsTo('late@example.org') === 1);
    expect(announced()).toBe(beforeReserve);

    // The next day: the account's quota has room again, read by the next instance.
    path.aws.ses.quota.Max24HourSend = 100_000;
    expect(path.aws.ses.sent.length).toBeLessThanOrEqual(quota);
    await path.functions.get(mailerId())?.stop();
    await timePasses();
    expect(await sending.done).toBe(0);
    expect(people.filter((email) => mailsTo(email) !== 1)).toEqual([]);
    expect(sending.output()).toContain('Sent');
  });
});

describe('a mail request that cannot be queued', () => {
  it('waits out the stream’s day, then lands in its own dead-letter queue as a pointer, without the address', async () => {
    const deadLetters = path.stack.only('AWS::SQS::Queue', 'MailerRequestsDeadLetterQueue');
    const priority = path.stack.queues.get(path.stack.only('AWS::SQS::Queue', 'MailQueuesPriority'));
    const refused = () => path.logs.filter(({ line }) => line.includes('"mail not queued"')).length;
    const refusedBefore = refused();
    // A request SQS refuses every time: larger than the queue takes.
    await path.sqs.send(
      new SetQueueAttributesCommand({ QueueUrl: priority?.url, Attributes: { MaximumMessageSize: '1024' } }),
    );
    const email = 'unqueued@example.org';
    await path.db.send(
      new PutCommand({
        TableName: path.tableName,
        Item: {
          email,
          status: 'pending',
          mailRequestId: 'r'.repeat(2_000),
          createdAt: new Date().toISOString(),
        },
      }),
    );
    await path.until('mail-requests fails to queue it, and is retried', () => refused() >= refusedBefore + 2);
    expect(await path.queueDepth(deadLetters)).toEqual({ visible: 0, invisible: 0 });

    path.sources.endRecordAges();
    const handedOn = async () => (await path.queueDepth(deadLetters)).visible === 1;
    await path.until('the request is handed to the dead-letter queue', handedOn, 10);
    const { Messages = [] } = await path.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: path.stack.queues.get(deadLetters)?.url }),
    );
    expect(JSON.parse(String(Messages[0]?.Body))).toMatchObject({
      requestContext: { condition: 'RecordAgeExceeded' },
      DDBStreamBatchInfo: { batchSize: 1 },
    });
    expect(Messages[0]?.Body).not.toContain(email);
    const Attributes = { MaximumMessageSize: '1048576' };
    await path.sqs.send(new SetQueueAttributesCommand({ QueueUrl: priority?.url, Attributes }));
  });
});
