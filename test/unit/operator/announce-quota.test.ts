/**
 * The announcement's dry run says how many days SES's quota makes the send take on AWS, keeping the
 * mailer's reserve for confirmations (functions/mailer/mail-pause.ts), and says nothing of a quota on one
 * machine, where there is none; on AWS it reads the suppressed mailboxes in the mail limit's table the
 * stack names. CloudFormation, SES v2 and the tables are mocked.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mailboxHash } from '../../../functions/store/mailbox';
import { announce, daysNeeded } from '../../../operator/announce-command';
import type { WaitlistTarget } from '../../../operator/waitlist-store-access';

const ses = mockClient(SESv2Client);
const cloudFormation = mockClient(CloudFormationClient);
const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' }));
const dynamo = mockClient(documentClient);

beforeEach(() => {
  ses.reset();
  dynamo.reset();
  cloudFormation.reset();
  cloudFormation.on(DescribeStacksCommand).resolves({
    Stacks: [
      {
        StackName: 'Mandje',
        CreationTime: new Date(),
        StackStatus: 'UPDATE_COMPLETE',
        Outputs: [
          { OutputKey: 'AnnouncementQueueUrl', OutputValue: 'https://sqs.eu-west-1.amazonaws.com/1/bulk' },
          { OutputKey: 'MailLimitTableName', OutputValue: 'mail-limits' },
        ],
      },
    ],
  });
  // No mailbox suppressed.
  dynamo.on(GetCommand).resolves({});
});

describe('daysNeeded', () => {
  it.each([
    ['nobody owed', 0, { max24HourSend: 50_000, sentLast24Hours: 0 }, 0],
    ['a day’s quota less the reserve of 500', 49_500, { max24HourSend: 50_000, sentLast24Hours: 0 }, 1],
    ['one more than that', 49_501, { max24HourSend: 50_000, sentLast24Hours: 0 }, 2],
    ['120,000 at 50,000 a day', 120_000, { max24HourSend: 50_000, sentLast24Hours: 0 }, 3],
    [
      'what went in the last 24 hours, counted against today',
      1,
      { max24HourSend: 50_000, sentLast24Hours: 49_500 },
      2,
    ],
    ['the sandbox’s 200, keeping a tenth', 180, { max24HourSend: 200, sentLast24Hours: 0 }, 1],
    ['no quota at all (-1)', 1_000_000, { max24HourSend: -1, sentLast24Hours: 0 }, 1],
  ])('counts %s', (_case, owed, quota, days) => {
    expect(daysNeeded(owed, quota)).toBe(days);
  });
});

describe('the dry run', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  function announcementFolder(): string {
    const dir = mkdtempSync(join(tmpdir(), 'mandje-dry-run-'));
    made.push(dir);
    const folder = join(dir, 'launch');
    mkdirSync(folder);
    writeFileSync(join(folder, 'nl.md'), 'Subject: Mandje is er\n\nHoi.\n');
    writeFileSync(join(folder, 'en.md'), 'Subject: Mandje is here\n\nHello.\n');
    return folder;
  }
  const confirmed = (email: string) => ({
    email,
    status: 'confirmed',
    language: 'nl',
    createdAt: '2026-11-24',
  });
  const table = { client: documentClient, tableName: 'waitlist', where: 'here', close: async () => {} };

  async function dryRun(target: WaitlistTarget, people = 2): Promise<string> {
    const Items = Array.from({ length: people }, (_, index) => confirmed(`person${index}@example.nl`));
    dynamo.on(ScanCommand).resolves({ Items });
    let printed = '';
    const code = await announce(
      table,
      target,
      { folder: announcementFolder(), send: false },
      { out: (text) => (printed += text), signal: new AbortController().signal },
    );
    expect(code).toBe(0);
    return printed;
  }

  it('on AWS reads SES’s quota and says how many days the people owed need', async () => {
    ses.on(GetAccountCommand).resolves({
      SendQuota: { MaxSendRate: 14, Max24HourSend: 50_000, SentLast24Hours: 1_000 },
    });

    const printed = await dryRun({ kind: 'aws', tableName: 'waitlist', region: 'eu-west-1' });

    expect(printed).toContain(
      "At today's SES quota (50,000 a day) the 2 people owed need 1 day; confirmations keep a reserve of 500 a day.",
    );
  });

  it('counts what went in the last 24 hours against today, and the sandbox’s reserve of a tenth', async () => {
    ses.on(GetAccountCommand).resolves({
      SendQuota: { MaxSendRate: 1, Max24HourSend: 200, SentLast24Hours: 300 },
    });

    const printed = await dryRun({ kind: 'aws', tableName: 'waitlist', region: 'eu-west-1' }, 150);

    expect(printed).toContain(
      "At today's SES quota (200 a day) the 150 people owed need 3 days; confirmations keep a reserve of 20 a day.",
    );
  });

  it('on AWS counts a person whose mailbox the stack’s mail limit table holds as bounced under "Skipped", not as owed', async () => {
    ses.on(GetAccountCommand).resolves({
      SendQuota: { MaxSendRate: 14, Max24HourSend: 50_000, SentLast24Hours: 0 },
    });
    dynamo
      .on(GetCommand, {
        TableName: 'mail-limits',
        Key: { deliveryKeyHash: mailboxHash('suppression', 'person0@example.nl') },
      })
      .resolves({ Item: { mailSuppressed: 'bounce', mailSuppressedAt: '2026-11-01T00:00:00.000Z' } });

    const printed = await dryRun({ kind: 'aws', tableName: 'waitlist', region: 'eu-west-1' });

    expect(printed).toContain('Would send to 1 confirmed people: nl 1, en 0');
    expect(printed).toContain('Skipped: pending 0, bounced 1, complained 0');
  });

  it('on one machine says nothing of a quota, and asks SES nothing', async () => {
    const printed = await dryRun({ kind: 'local', dataDir: 'unused' });

    expect(printed).toContain('Would send to 2 confirmed people');
    expect(printed).not.toMatch(/quota/i);
    expect(ses.commandCalls(GetAccountCommand)).toHaveLength(0);
  });
});
