/**
 * On AWS the operator's tool finds the bulk mail queue as the stack names it: the output
 * AnnouncementQueueUrl of the stack Mandje, in the table's region. CloudFormation and the table are mocked;
 * the send itself runs on the production path (test/aws/mail-path.test.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { announce } from '../../../operator/announce-command';

const cloudFormation = mockClient(CloudFormationClient);
const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' }));
const table = { client: documentClient, tableName: 'waitlist', where: 'AWS', close: async () => {} };

const dir = mkdtempSync(join(tmpdir(), 'mandje-queue-'));
beforeEach(() => cloudFormation.reset());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function announcementFolder(): string {
  const folder = join(dir, 'launch');
  mkdirSync(folder);
  writeFileSync(join(folder, 'nl.md'), 'Subject: Mandje is er\n\nHoi.\n');
  writeFileSync(join(folder, 'en.md'), 'Subject: Mandje is here\n\nHello.\n');
  return folder;
}

it('asks CloudFormation for the stack Mandje in the table’s region, and says to deploy again when it names no queue', async () => {
  cloudFormation.on(DescribeStacksCommand).resolves({
    Stacks: [
      {
        StackName: 'Mandje',
        CreationTime: new Date(),
        StackStatus: 'UPDATE_COMPLETE',
        Outputs: [{ OutputKey: 'SiteUrl', OutputValue: 'https://mandje.nl' }],
      },
    ],
  });

  await expect(
    announce(
      table,
      { kind: 'aws', tableName: 'waitlist', region: 'eu-central-1' },
      { folder: announcementFolder(), send: true },
      { out: () => {}, signal: new AbortController().signal },
    ),
  ).rejects.toThrow('the stack Mandje has no AnnouncementQueueUrl: deploy it again');

  const [call] = cloudFormation.commandCalls(DescribeStacksCommand);
  expect(call?.args[0].input).toEqual({ StackName: 'Mandje' });
  expect(await call?.thisValue.config.region()).toBe('eu-central-1');
});
