import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import {
  type ProductionPath,
  seedConfirmed,
  startAnnouncement,
  startProductionPath,
} from './production-path';

/**
 * Mail on the production path: the announcement queued by the operator's tool and sent inside "AWS"
 * starts it, SES throttling, a mailer killed mid-batch, and the stream read again from its start.
 */

let path: ProductionPath;
beforeAll(async () => {
  path = await startProductionPath();
});
afterAll(async () => {
  await path?.stop();
});

const mailerId = () => path.stack.only('AWS::Lambda::Function', 'MailerHandler');
const signUp = (email: string) =>
  path.api('POST', WAITLIST_PATH, { body: JSON.stringify({ email, language: 'en' }) });
/** How many mails SES accepted for `to`. */
const mailsTo = (to: string) => path.aws.ses.sent.filter((mail) => mail.to.includes(to)).length;
const runAnnouncement = async (id: string) => {
  const sending = startAnnouncement(path, id);
  return { code: await sending.done, output: sending.output() };
};

describe('the mail path as AWS runs it', () => {
  it('mails every signup once while SES throttles', async () => {
    path.aws.ses.fault = { kind: 'throttle', times: 6 };
    const people = Array.from({ length: 6 }, (_, index) => `throttled${index}@example.com`);
    for (const email of people) expect((await signUp(email)).statusCode).toBe(201);
    await path.until('every signup is mailed', () => people.every((email) => mailsTo(email) === 1));
    expect(path.aws.ses.fault).toBeUndefined();
    expect(path.logs.some(({ line }) => line.includes('"MailThrottled"'))).toBe(true);
  });

  it('announces to a few hundred people, nobody twice, even when the mailer is killed mid-batch', async () => {
    const people = await seedConfirmed(path, 300, 'announce.example');
    const sending = startAnnouncement(path, 'launch');
    await path.until('the announcement is under way', () => people.filter(mailsTo).length >= 60);
    await path.functions.get(mailerId())?.killBusy();
    // The killed batch's messages come back once the queue's visibility timeout ends: now, here.
    await path.sources.endVisibilityTimeouts();
    const [code, output] = [await sending.done, sending.output()];
    expect(code).toBe(0);
    expect(people.filter((email) => mailsTo(email) > 1)).toEqual([]);
    const mailed = people.filter((email) => mailsTo(email) === 1).length;
    // Killed mid-send, a mail's fate is unknown: never sent again. Run again, the tool counts those few.
    const sentBefore = path.aws.ses.sent.length;
    const again = await runAnnouncement('launch');
    expect(path.aws.ses.sent.length).toBe(sentBefore);
    const unknown = Number(/unknown \([^)]*\) (\d+)/.exec(again.output)?.[1]);
    // Everyone is mailed or unknown. An unknown send may also have reached SES before the kill (its mark
    // was lost with the mailer): at most the killed batches (two at a time, ten each) are both.
    const both = mailed + unknown - 300;
    expect(both, `${output}\n${again.output}`).toBeGreaterThanOrEqual(0);
    expect(both, `${output}\n${again.output}`).toBeLessThanOrEqual(20);
    expect(unknown).toBeLessThanOrEqual(20);
  });

  it('stops a send under way when the operator says so, and the same command later sends the rest, nobody twice', async () => {
    const people = await seedConfirmed(path, 400, 'halt.example');
    const mailed = () => people.filter(mailsTo).length;
    const sending = startAnnouncement(path, 'halt', { rate: 20 });
    await path.until('the send is under way', () => mailed() >= 20);
    const stop = startAnnouncement(path, 'halt', { send: false, stop: true });
    expect(await stop.done).toBe(0);
    expect(stop.output()).toMatch(/^Stopped pass 1 of halt/);
    expect(await sending.done).toBe(1);
    expect(sending.output()).toContain('Stopped: stopped by the operator.');
    // The mailer reads the stop within ten seconds; the messages left on the queue are dropped as they come.
    await path.until('the queue is drained', async () => {
      const bulk = await path.queueDepth(path.stack.only('AWS::SQS::Queue', 'MailQueuesBulk'));
      return bulk.visible + bulk.invisible === 0;
    });
    expect(mailed()).toBeLessThan(400);

    const sentBefore = path.aws.ses.sent.length;
    const rest = await runAnnouncement('halt');
    expect(rest.code, rest.output).toBe(0);
    expect(people.filter((email) => mailsTo(email) !== 1)).toEqual([]);
    expect(rest.output).toContain(`Sent ${path.aws.ses.sent.length - sentBefore}:`);
  });

  it('sends nothing again when the stream is read again from its start', async () => {
    const before = path.aws.ses.sent.length;
    const mapping = path.stack.mappings.find(
      (m) => m.kind === 'stream' && m.functionId.startsWith('MailerRequests'),
    );
    if (!mapping) throw new Error('no stream mapping for mail requests');
    const invocations = path.functions.get(mapping.functionId)?.invocations ?? 0;
    path.sources.replay(mapping);
    await path.until(
      'the stream is read again',
      () => (path.functions.get(mapping.functionId)?.invocations ?? 0) > invocations,
    );
    await new Promise((done) => setTimeout(done, 5_000));
    expect(path.aws.ses.sent.length).toBe(before);
  });

  it('makes every call with a permission its role grants', () => {
    expect(path.aws.calls.length).toBeGreaterThan(0);
    expect(path.aws.calls.filter((call) => call.decision !== 'Allowed')).toEqual([]);
  });
});
