/** The announcement's stack outputs and SES quota on AWS (mocked). */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, expect, it } from 'vitest';
import { mailboxHash } from '../../../functions/store/mailbox';
import { announce, daysNeeded } from '../../../operator/announce-command';

const ses = mockClient(SESv2Client);
const cloudFormation = mockClient(CloudFormationClient);
const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' }));
const dynamo = mockClient(documentClient);
const table = { client: documentClient, tableName: 'waitlist', where: 'here', close: async () => {} };
const OUTPUTS: Record<string, string> = {
  AnnouncementQueueUrl: 'https://sqs/1/bulk',
  MailLimitTableName: 'limits',
};

function outputs(...names: string[]) {
  const Outputs = names.map((OutputKey) => ({ OutputKey, OutputValue: OUTPUTS[OutputKey] }));
  cloudFormation.on(DescribeStacksCommand).resolves({
    Stacks: [{ StackName: 'Mandje', CreationTime: new Date(), StackStatus: 'UPDATE_COMPLETE', Outputs }],
  });
}

beforeEach(() => {
  for (const mock of [ses, dynamo, cloudFormation]) mock.reset();
  outputs('AnnouncementQueueUrl', 'MailLimitTableName');
  dynamo.on(GetCommand).resolves({}); // No mailbox suppressed.
});

function announcementFolder(): string {
  const folder = join(mkdtempSync(join(tmpdir(), 'mandje-dry-run-')), 'launch');
  mkdirSync(folder);
  writeFileSync(join(folder, 'nl.md'), 'Subject: Mandje is er\n\nHoi.\n');
  writeFileSync(join(folder, 'en.md'), 'Subject: Mandje is here\n\nHello.\n');
  return folder;
}

/** The tool on the AWS table in eu-central-1: what it printed. */
async function run({ people = 2, send = false } = {}): Promise<string> {
  const confirmed = { status: 'confirmed', language: 'nl', createdAt: '2026-11-24' };
  const Items = Array.from({ length: people }, (_, index) => ({
    email: `person${index}@example.nl`,
    ...confirmed,
  }));
  dynamo.on(ScanCommand).resolves({ Items });
  let printed = '';
  const io = { out: (text: string) => (printed += text), signal: new AbortController().signal };
  const target = { kind: 'aws', tableName: 'waitlist', region: 'eu-central-1' } as const;
  expect(await announce(table, target, { folder: announcementFolder(), send }, io)).toBe(0);
  return printed;
}

it.each([
  ['nobody owed', 0, 50_000, 0, 0],
  ['a day’s quota less the reserve of 500', 49_500, 50_000, 0, 1],
  ['one more than that', 49_501, 50_000, 0, 2],
  ['what went in the last 24 hours, counted against today', 1, 50_000, 49_500, 2],
  ['the sandbox’s 200, keeping a tenth', 180, 200, 0, 1],
  ['no quota at all (-1)', 1_000_000, -1, 0, 1],
])('daysNeeded counts %s', (_case, owed, max24HourSend, sentLast24Hours, days) => {
  expect(daysNeeded(owed, { max24HourSend, sentLast24Hours })).toBe(days);
});

it('on AWS the dry run reads SES’s quota and says how many days the people owed need', async () => {
  ses.on(GetAccountCommand).resolves({ SendQuota: { Max24HourSend: 200, SentLast24Hours: 300 } });

  expect(await run({ people: 150 })).toContain(
    "At today's SES quota (200 a day) the 150 people owed need 3 days; confirmations keep a reserve of 20 a day.",
  );
});

it('on AWS counts a person whose mailbox the stack’s mail limit table holds as bounced, not as owed', async () => {
  ses.on(GetAccountCommand).resolves({ SendQuota: { Max24HourSend: 50_000 } });
  const Key = { deliveryKeyHash: mailboxHash('suppression', 'person0@example.nl') };
  dynamo
    .on(GetCommand, { TableName: 'limits', Key })
    .resolves({ Item: { mailSuppressed: 'bounce', mailSuppressedAt: '2026-11-01T00:00:00.000Z' } });

  const printed = await run();

  expect(printed).toContain('Would send to 1 confirmed people: nl 1, en 0');
  expect(printed).toContain('Skipped: pending 0, bounced 1, complained 0');
});

it('asks for the stack Mandje in the table’s region, and says to deploy again when it names no queue', async () => {
  outputs('MailLimitTableName');

  await expect(run({ send: true })).rejects.toThrow(
    'the stack Mandje has no AnnouncementQueueUrl: deploy it again',
  );
  const [call] = cloudFormation.commandCalls(DescribeStacksCommand);
  expect(await call?.thisValue.config.region()).toBe('eu-central-1');
});
