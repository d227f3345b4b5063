/**
 * The announcement's part of the mailer (functions/announce/announcement-batch.ts), as Lambda runs it for
 * the bulk queue: one recipient {id, pass, key} per message, the pass's state read from the table, the
 * mail sent at the bulk lane's pace, and what the batch did added to the pass's progress. A mail SES refuses
 * for good marks its person undeliverable and goes to the dead-letter queue; a fault of this side no retry
 * will fix stops the pass. Faults of SES's set-up, which pause sending instead: mailer-pause.test.ts.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BadRequestException, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { announcementProgressKey, announcementStateKey } from '#contract/announcement-keys';
import { BULK_SHARE, MAILER_CONCURRENCY, PACE_SHARE } from '#contract/mail-pace';
import {
  announcementSending,
  DEAD_LETTER_QUEUE_URL,
  deadLetters,
  deliver,
  dynamo,
  LINK_KEYS,
  logged,
  PERSON,
  personClaimable,
  personUpdates,
  progressOf,
  recipient,
  sendMoments,
  ses,
  stubEnvironment,
  visibilityChanges,
  WAITLIST,
  waitlistUpdates,
} from './mailer-under-test';

const sends = () => ses.commandCalls(SendEmailCommand);

describe('the mailer: the announcement', () => {
  it('reads the pass’s state, sends the mail at the pace, records it, and adds it to the pass’s progress', async () => {
    const { id } = announcementSending();
    personClaimable('en');
    dynamo.on(UpdateCommand, { ...WAITLIST, Key: { email: announcementProgressKey(id, 1) } }).resolves({});

    expect(await deliver([recipient(id)])).toEqual({ batchItemFailures: [] });

    expect(dynamo.commandCalls(GetCommand, WAITLIST)[0]?.args[0].input).toMatchObject({
      Key: { email: announcementStateKey(id) },
      ConsistentRead: true,
    });
    expect(sends()).toHaveLength(1);
    const raw = Buffer.from(sends()[0]?.args[0].input.Content?.Raw?.Data ?? []).toString();
    expect(raw).toContain('Subject: Mandje is here');
    expect(personUpdates().at(-1)).toBe('ADD announcements :ids REMOVE announcing, announcingAt');
    expect(progressOf(id)).toEqual([
      expect.objectContaining({
        UpdateExpression: 'ADD sent_en :sent_en',
        ExpressionAttributeValues: expect.objectContaining({ ':sent_en': 1 }),
      }),
    ]);
    expect(deadLetters()).toEqual([]);
  });

  it('adds up a batch’s outcomes in one progress write per pass', async () => {
    const { id } = announcementSending();
    personClaimable('nl');
    dynamo
      .on(UpdateCommand, { ...WAITLIST, Key: { email: 'bob@example.nl' } })
      .rejects(new ConditionalCheckFailedException({ message: 'not confirmed', $metadata: {} }));

    await deliver([recipient(id), recipient(id, 1, 'bob@example.nl')]);

    expect(sends()).toHaveLength(1);
    const [progress, ...more] = progressOf(id);
    expect(more).toEqual([]);
    expect(progress?.UpdateExpression).toMatch(/^ADD /);
    expect(progress?.ExpressionAttributeValues).toMatchObject({ ':sent_nl': 1, ':not_owed': 1 });
    expect(progress?.ExpressionAttributeValues).not.toHaveProperty(':failed');
  });

  it('sends nothing to a person who needs it no more, and counts them not owed', async () => {
    const { id } = announcementSending();
    dynamo
      .on(UpdateCommand, { ...WAITLIST, Key: { email: PERSON } })
      .rejects(new ConditionalCheckFailedException({ message: 'left', $metadata: {} }));

    expect(await deliver([recipient(id)])).toEqual({ batchItemFailures: [] });

    expect(sends()).toHaveLength(0);
    expect(progressOf(id)[0]?.ExpressionAttributeValues).toMatchObject({ ':not_owed': 1 });
    expect(deadLetters()).toEqual([]);
  });

  it.each([
    ['a stopped pass', { stopReason: 'access_denied: AccessDeniedException' }, 1],
    ['a pass queued again since', { pass: 2 }, 1],
  ])('lets the message of %s go without sending, counted not owed', async (_what, state, pass) => {
    const { id } = announcementSending(state);

    expect(await deliver([recipient(id, pass)])).toEqual({ batchItemFailures: [] });

    expect(sends()).toHaveLength(0);
    expect(personUpdates()).toEqual([]);
    expect(progressOf(id, pass)[0]?.ExpressionAttributeValues).toMatchObject({ ':not_owed': 1 });
    expect(visibilityChanges()).toEqual([]);
  });

  it('gives the batch’s messages back when their counts cannot be written, to be counted when they come again', async () => {
    const { id } = announcementSending();
    personClaimable();
    dynamo
      .on(UpdateCommand, { ...WAITLIST, Key: { email: announcementProgressKey(id, 1) } })
      .rejects(Object.assign(new Error('unavailable'), { name: 'ServiceUnavailable', $fault: 'server' }));
    const message = recipient(id);

    expect(await deliver([message])).toEqual({ batchItemFailures: [{ itemIdentifier: message.messageId }] });

    expect(sends()).toHaveLength(1);
    expect(personUpdates().at(-1)).toBe('ADD announcements :ids REMOVE announcing, announcingAt');
    expect(logged()).toContainEqual(
      expect.objectContaining({ level: 'WARN', message: 'announcement progress not counted' }),
    );
  });

  it('reads the state again for a pass newer than the one it read a moment ago, and sends it', async () => {
    const { id, passedOn } = announcementSending({ pass: 1 });
    dynamo
      .on(UpdateCommand, { ...WAITLIST, Key: { email: 'bob@example.nl' } })
      .rejects(new ConditionalCheckFailedException({ message: 'not confirmed', $metadata: {} }));
    await deliver([recipient(id, 1, 'bob@example.nl')]);
    // The operator's tool queues pass 2 within the seconds the mailer keeps pass 1's state.
    passedOn();
    personClaimable();

    expect(await deliver([recipient(id, 2)])).toEqual({ batchItemFailures: [] });

    expect(sends()).toHaveLength(1);
    expect(progressOf(id, 2)[0]?.ExpressionAttributeValues).toMatchObject({ ':sent_en': 1 });
  });

  it('lets a message go when the pass’s state is not there at all', async () => {
    expect(await deliver([recipient('never-planned')])).toEqual({ batchItemFailures: [] });

    expect(sends()).toHaveLength(0);
    expect(personUpdates()).toEqual([]);
  });

  it('marks a person SES refuses for good undeliverable, and moves their message to the dead-letter queue', async () => {
    const { id } = announcementSending();
    personClaimable();
    ses.on(SendEmailCommand).rejects(new BadRequestException({ message: 'Illegal address', $metadata: {} }));
    const message = recipient(id);

    expect(await deliver([message])).toEqual({ batchItemFailures: [] });

    expect(sends()).toHaveLength(1);
    expect(personUpdates().at(-1)).toBe(
      'ADD announcementsUndeliverable :ids REMOVE announcing, announcingAt',
    );
    expect(deadLetters()).toEqual([
      { queueUrl: DEAD_LETTER_QUEUE_URL, body: message.body, mailClass: 'announcement', reason: 'refused' },
    ]);
    expect(visibilityChanges()).toEqual([]);
    expect(progressOf(id)[0]?.ExpressionAttributeValues).toMatchObject({ ':refused': 1 });
  });

  it('counts each refusal as MailRefused, and goes on with the pass', async () => {
    const { id } = announcementSending();
    const people = Array.from({ length: 5 }, (_, index) => `person${index}@example.nl`);
    for (const email of people)
      dynamo
        .on(UpdateCommand, { ...WAITLIST, Key: { email } })
        .resolvesOnce({ Attributes: LINK_KEYS })
        .resolvesOnce({ Attributes: { email, emailAsEntered: email, language: 'nl', ...LINK_KEYS } })
        .resolves({});
    ses.on(SendEmailCommand).rejects(new BadRequestException({ message: 'Illegal address', $metadata: {} }));
    const messages = people.map((email) => recipient(id, 1, email));

    expect(await deliver(messages)).toEqual({ batchItemFailures: [] });

    expect(deadLetters()).toHaveLength(5);
    expect(logged().filter((line) => line.MailRefused === 1)).toHaveLength(5);
    expect(waitlistUpdates().some((update) => update.Key?.email === announcementStateKey(id))).toBe(false);
  });

  it('gives a message back to its queue after a fault that may pass, its claim cleared', async () => {
    const { id } = announcementSending();
    personClaimable();
    ses
      .on(SendEmailCommand)
      .rejects(Object.assign(new Error('unavailable'), { name: 'ServiceUnavailable', $fault: 'server' }));
    const message = recipient(id);

    expect(await deliver([message])).toEqual({ batchItemFailures: [{ itemIdentifier: message.messageId }] });

    expect(personUpdates().at(-1)).toBe('REMOVE announcing, announcingAt');
    expect(visibilityChanges()).toEqual([expect.objectContaining({ VisibilityTimeout: 30 })]);
    expect(deadLetters()).toEqual([]);
    expect(waitlistUpdates().some((update) => update.UpdateExpression?.includes('stopReason'))).toBe(false);
    expect(progressOf(id)[0]?.ExpressionAttributeValues).toMatchObject({ ':failed': 1 });
  });

  it.each([
    ['a cut connection', 'network', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    ['a timeout', 'timeout', Object.assign(new Error('late'), { name: 'TimeoutError' })],
  ])(
    'keeps the claim when SES gave no answer (%s): counted unknown, never sent again',
    async (_case, faultClass, fault) => {
      const { id } = announcementSending();
      personClaimable();
      ses.on(SendEmailCommand).rejects(fault);

      expect(await deliver([recipient(id)])).toEqual({ batchItemFailures: [] });

      expect(sends()).toHaveLength(1);
      expect(personUpdates().at(-1)).toBe('SET announcing = :id, announcingAt = :now');
      expect(visibilityChanges()).toEqual([]);
      expect(deadLetters()).toEqual([]);
      expect(progressOf(id)[0]?.ExpressionAttributeValues).toMatchObject({ ':unrecorded': 1 });
      expect(progressOf(id)[0]?.ExpressionAttributeValues).not.toHaveProperty(':failed');
      expect(logged()).toContainEqual(
        expect.objectContaining({ level: 'WARN', message: 'announcement outcome unknown', faultClass }),
      );
    },
  );

  it('keeps the mail owed when no connection was made (refused): nothing can have gone', async () => {
    const { id } = announcementSending();
    personClaimable();
    ses
      .on(SendEmailCommand)
      .rejects(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));

    const result = await deliver([recipient(id)]);

    expect(result.batchItemFailures).toHaveLength(1);
    expect(personUpdates().at(-1)).toBe('REMOVE announcing, announcingAt');
    expect(progressOf(id)[0]?.ExpressionAttributeValues).not.toHaveProperty(':unrecorded');
  });

  it('stops the pass at a fault of this side no retry will fix, and lets its later messages go unsent', async () => {
    const { id, stopped } = announcementSending();
    dynamo
      .on(UpdateCommand, { ...WAITLIST, Key: { email: PERSON } })
      .rejects(Object.assign(new Error('not allowed'), { name: 'AccessDeniedException', $fault: 'client' }));
    const message = recipient(id);

    expect(await deliver([message])).toEqual({ batchItemFailures: [{ itemIdentifier: message.messageId }] });

    const stop = waitlistUpdates().find((update) => update.Key?.email === announcementStateKey(id));
    expect(stop).toMatchObject({
      UpdateExpression: 'SET stopReason = :reason',
      ConditionExpression: 'pass = :pass',
      ExpressionAttributeValues: { ':reason': 'access_denied: AccessDeniedException', ':pass': 1 },
    });
    expect(deadLetters()).toEqual([]);

    // The state as the stop left it, read again rather than taken from before.
    stopped();
    ses.resetHistory();
    expect(await deliver([recipient(id, 1, 'bob@example.nl')])).toEqual({ batchItemFailures: [] });
    expect(sends()).toHaveLength(0);
  });

  it('gives way for a second when SES says “slow down”, so confirmations go first, and then sends', async () => {
    const { id } = announcementSending();
    personClaimable();
    const answers: { at: number; throttled: boolean }[] = [];
    ses.on(SendEmailCommand).callsFake(() => {
      const throttled = answers.length === 0;
      answers.push({ at: performance.now(), throttled });
      if (throttled)
        throw Object.assign(new Error('Maximum sending rate exceeded.'), {
          name: 'TooManyRequestsException',
          $fault: 'client',
        });
      return { MessageId: 'ses-1' };
    });

    expect(await deliver([recipient(id)])).toEqual({ batchItemFailures: [] });

    expect(answers.map(({ throttled }) => throttled)).toEqual([true, false]);
    // Not the 250 ms a throttled mail waits by itself: the lane held back a second (a tenth off for timers).
    expect((answers[1]?.at as number) - (answers[0]?.at as number)).toBeGreaterThanOrEqual(900);
  });

  it('takes BULK_SHARE of the account’s rate, each instance its share, leaving the rest to confirmations', async () => {
    vi.resetModules();
    stubEnvironment({ MAIL_MAX_SEND_RATE: '2' });
    const { handler } = await import('../../../functions/mailer/handler');
    const { id } = announcementSending();
    personClaimable('en', 'ann@example.nl');
    personClaimable('en', 'bob@example.nl');
    const sends = sendMoments();

    await handler(
      { Records: [recipient(id, 1, 'ann@example.nl'), recipient(id, 1, 'bob@example.nl')] },
      { awsRequestId: 'invocation-1', getRemainingTimeInMillis: () => 600_000 },
    );

    const spacing = (MAILER_CONCURRENCY * 1_000) / (2 * PACE_SHARE * BULK_SHARE);
    sends.expectGapOfAtLeast(spacing);
  });

  it('keeps an announcement’s own rate when it is lower than the account’s, each instance its share', async () => {
    const { id } = announcementSending({ rate: 4 });
    personClaimable('en', 'ann@example.nl');
    personClaimable('en', 'bob@example.nl');
    const sends = sendMoments();

    await deliver([recipient(id, 1, 'ann@example.nl'), recipient(id, 1, 'bob@example.nl')]);

    // 4 a second for the announcement, shared by MAILER_CONCURRENCY instances: this one's turns 500 ms apart.
    sends.expectGapOfAtLeast((MAILER_CONCURRENCY * 1_000) / 4);
  });
});
