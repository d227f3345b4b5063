import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BadRequestException } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Announcement } from '../../../functions/announce/announcement-text';
import {
  announcementFor,
  deliverAnnouncement,
  SentButUnrecorded,
} from '../../../functions/announce/deliver-announcement';
import { MailOutcomeUnknown, type OutgoingMail } from '../../../functions/mailer/mail-transport';
import { mailboxHash } from '../../../functions/store/mailbox';

const documentClient = DynamoDBDocumentClient.from(
  new (await import('@aws-sdk/client-dynamodb')).DynamoDBClient({ region: 'eu-west-1' }),
);
const dynamo = mockClient(documentClient);
const store = { client: documentClient, tableName: 'waitlist' };
const limits = { client: documentClient, tableName: 'limits' };
const KEY = 'ann@example.nl';
const announcement: Announcement = {
  id: 'launch',
  texts: {
    nl: { subject: 'Hallo', paragraphs: [['Tekst.']] },
    en: { subject: 'Hello', paragraphs: [['Text.']] },
  },
};
const LINK_KEYS = { linkId: 'A'.repeat(22), leaveKey: 'B'.repeat(22) };
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'no', $metadata: {} });

/** The updates in the order they were sent, by what they do. */
const updates = () =>
  dynamo.commandCalls(UpdateCommand).map(({ args: [command] }) => command.input.UpdateExpression ?? '');

function sender(send = vi.fn(async (_mail: OutgoingMail) => {}), waitTurn = vi.fn(async () => {})) {
  return {
    store,
    limits,
    siteUrl: 'https://mandje.nl',
    mailFrom: 'hallo@mandje.nl',
    contactEmail: 'vragen@mandje.nl',
    brandName: 'Mandje',
    waitTurn,
    send,
  };
}

const messageIdOf = (key: string) =>
  announcementFor(sender(), announcement, { key, to: key, language: 'en', ...LINK_KEYS }).messageId;

/** The link keys, then the claim answering with the record. */
function recordClaimable(language: 'nl' | 'en' = 'en') {
  dynamo
    .on(UpdateCommand)
    .resolvesOnce({ Attributes: LINK_KEYS })
    .resolvesOnce({ Attributes: { email: KEY, emailAsEntered: 'Ann@Example.nl', language, ...LINK_KEYS } })
    .resolves({});
}

beforeEach(() => {
  dynamo.reset();
  // No mailbox is suppressed unless a test says so.
  dynamo.on(GetCommand).resolves({});
});

describe('sending the announcement to one person', () => {
  it('marks an address the rule now refuses as undeliverable and goes on, rather than stopping the run', async () => {
    dynamo
      .on(UpdateCommand)
      .resolvesOnce({ Attributes: LINK_KEYS })
      .resolvesOnce({
        Attributes: { email: 'josé@example.nl', emailAsEntered: 'josé@example.nl', language: 'nl' },
      })
      .resolves({});
    const send = vi.fn(async (_mail: OutgoingMail) => {});

    expect(await deliverAnnouncement(sender(send), announcement, 'josé@example.nl')).toBe('not_owed');

    expect(send).not.toHaveBeenCalled();
    expect(updates().at(-1)).toBe('ADD announcementsUndeliverable :ids REMOVE announcing, announcingAt');
  });

  it('claims, sends with the person’s leave link and language, then records it', async () => {
    recordClaimable('en');
    const send = vi.fn(async (_mail: OutgoingMail) => {});

    const outcome = await deliverAnnouncement(sender(send), announcement, KEY);

    expect(outcome).toEqual({ sent: 'en' });
    expect(updates()).toEqual([
      expect.stringContaining('leaveKey = if_not_exists'),
      'SET announcing = :id, announcingAt = :now',
      'ADD announcements :ids REMOVE announcing, announcingAt',
    ]);
    // Whom the claim's condition lets through (confirmed, not suppressed, not yet sent) is held on dynalite by
    // test/integration/announce.test.ts.
    expect(dynamo.commandCalls(UpdateCommand)[1]?.args[0].input.ConditionExpression).toBeDefined();
    const mail = send.mock.calls[0]?.[0] as OutgoingMail;
    expect(mail.to).toBe('Ann@example.nl');
    expect(mail.raw).toContain('Subject: Hello');
    expect(mail.raw).toMatch(/^List-Unsubscribe: <https:\/\/mandje\.nl\/api\/leave\?lang=en&t=[\w-]{43}>$/m);
    expect(mail.messageId).toBe(messageIdOf(KEY));
  });

  it('sends nothing to a mailbox that bounced or complained under another spelling, and gives the record its mark', async () => {
    dynamo
      .on(GetCommand, {
        TableName: 'limits',
        Key: { deliveryKeyHash: mailboxHash('suppression', 'ann+old@example.nl') },
      })
      .resolves({ Item: { mailSuppressed: 'complaint', mailSuppressedAt: '2026-11-20T10:00:00.000Z' } });
    dynamo.on(UpdateCommand).resolves({});
    const send = vi.fn(async (_mail: OutgoingMail) => {});

    expect(await deliverAnnouncement(sender(send), announcement, KEY)).toBe('not_owed');

    expect(send).not.toHaveBeenCalled();
    expect(dynamo.commandCalls(UpdateCommand).map(({ args: [command] }) => command.input)).toEqual([
      expect.objectContaining({
        Key: { email: KEY },
        UpdateExpression: 'SET mailSuppressed = :reason, mailSuppressedAt = :at',
        ExpressionAttributeValues: { ':reason': 'complaint', ':at': '2026-11-20T10:00:00.000Z' },
      }),
    ]);
  });

  it('gives every attempt for one person the same Message-ID, naming no address', () => {
    const id = messageIdOf(KEY);
    expect(id).toMatch(/^launch\.[0-9a-f]{16}@mandje\.nl$/);
    expect(messageIdOf('bob@example.nl')).not.toBe(id);
  });

  it('sends nothing when the claim fails: had it already, being sent it, not confirmed, or suppressed', async () => {
    dynamo.on(UpdateCommand).resolvesOnce({ Attributes: LINK_KEYS }).rejectsOnce(conditionFailed());
    const send = vi.fn(async () => {});

    expect(await deliverAnnouncement(sender(send), announcement, KEY)).toBe('not_owed');
    expect(send).not.toHaveBeenCalled();
  });

  it('clears its claim when the send fails, so the mail stays owed', async () => {
    recordClaimable();
    const send = vi.fn(async (_mail: OutgoingMail) => {
      throw Object.assign(new Error('down'), { name: 'ServiceUnavailable' });
    });

    await expect(deliverAnnouncement(sender(send), announcement, KEY)).rejects.toThrow('down');
    expect(updates().at(-1)).toBe('REMOVE announcing, announcingAt');
  });

  it('keeps its claim when SES may have taken the mail without answering: unknown, never sent again', async () => {
    recordClaimable();
    const send = vi.fn(async (_mail: OutgoingMail) => {
      throw new MailOutcomeUnknown(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    });

    await expect(deliverAnnouncement(sender(send), announcement, KEY)).rejects.toBeInstanceOf(
      MailOutcomeUnknown,
    );
    expect(updates().at(-1)).toBe('SET announcing = :id, announcingAt = :now');
  });

  it('claims the person only once their turn at the pace has come, so a crash while waiting strands nobody', async () => {
    recordClaimable();
    const waitTurn = vi.fn(async () => {
      expect(updates().some((update) => update.startsWith('SET announcing'))).toBe(false);
    });
    const send = vi.fn(async (_mail: OutgoingMail) => {});

    await deliverAnnouncement(sender(send, waitTurn), announcement, KEY);

    expect(waitTurn).toHaveBeenCalledOnce();
    expect(updates()[1]).toBe('SET announcing = :id, announcingAt = :now');
  });

  it('claims nobody when the wait for a turn runs out of time', async () => {
    recordClaimable();
    const waitTurn = vi.fn(async () => {
      throw Object.assign(new Error('The operation was aborted'), { name: 'AbortError' });
    });
    const send = vi.fn(async (_mail: OutgoingMail) => {});

    await expect(deliverAnnouncement(sender(send, waitTurn), announcement, KEY)).rejects.toThrow('aborted');
    expect(send).not.toHaveBeenCalled();
    expect(updates().some((update) => update.startsWith('SET announcing'))).toBe(false);
  });

  it('with --resend-unknown claims a send left unknown before the run began, and no other', async () => {
    recordClaimable();

    await deliverAnnouncement(sender(), announcement, KEY, '2026-11-26T12:00:00.000Z');

    const claim = dynamo.commandCalls(UpdateCommand)[1]?.args[0].input;
    expect(claim?.ConditionExpression).toContain('announcing <> :id OR announcingAt < :before');
    expect(claim?.ExpressionAttributeValues?.[':before']).toBe('2026-11-26T12:00:00.000Z');
  });

  it('marks a person SES refuses for good undeliverable, so no run tries again, and says it was refused', async () => {
    recordClaimable();
    const send = vi.fn(async (_mail: OutgoingMail) => {
      throw new BadRequestException({ message: 'Illegal address', $metadata: {} });
    });

    expect(await deliverAnnouncement(sender(send), announcement, KEY)).toBe('refused');

    expect(send).toHaveBeenCalledTimes(1);
    expect(updates().slice(1)).toEqual([
      'SET announcing = :id, announcingAt = :now',
      'ADD announcementsUndeliverable :ids REMOVE announcing, announcingAt',
    ]);
    const mark = dynamo.commandCalls(UpdateCommand).at(-1)?.args[0].input;
    expect(mark).toMatchObject({
      Key: { email: KEY },
      ConditionExpression: 'announcing = :id',
      ExpressionAttributeValues: { ':id': 'launch', ':ids': new Set(['launch']) },
    });
  });

  it('keeps its claim when recording fails after the mail was accepted: unknown, never sent again', async () => {
    dynamo
      .on(UpdateCommand)
      .resolvesOnce({ Attributes: LINK_KEYS })
      .resolvesOnce({ Attributes: { email: KEY, emailAsEntered: KEY, language: 'nl', ...LINK_KEYS } })
      .rejects(Object.assign(new Error('store gone'), { name: 'InternalServerError' }));

    await expect(deliverAnnouncement(sender(), announcement, KEY)).rejects.toBeInstanceOf(SentButUnrecorded);
    expect(updates()).not.toContain('REMOVE announcing, announcingAt');
  });
});
