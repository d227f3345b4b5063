import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAIL_LIMIT_EXPIRY_ATTRIBUTE } from '#contract/abuse-limits';
import { DEFAULT_SITE_CONFIG as siteConfig } from '#contract/site-config';
import type { MandjeStack } from '../../infra/mandje-stack';
import { synthStack } from './synth';
import { logicalIdOf, present, type Resource, resourceOf, statementsOf } from './template-queries';

let stack: MandjeStack;
let template: Template;
let ids: {
  table: string;
  mailerRole: string;
  mailLimitTable: string;
  identity: string;
  configurationSet: string;
};

const only = (type: string): Resource => {
  const all = Object.values(template.findResources(type)) as Resource[];
  expect(all, type).toHaveLength(1);
  return all[0] as Resource;
};
const _tableArn = () => ({ 'Fn::GetAtt': [ids.table, 'Arn'] });
const _logStreamsOf = (logGroup: string) => ({
  Effect: 'Allow',
  Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
  Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [logGroup, 'Arn'] }, ':*']] },
});
const sesArn = (resource: string, logicalId: string) => ({
  'Fn::Join': [
    '',
    ['arn:', { Ref: 'AWS::Partition' }, `:ses:eu-west-1:123456789012:${resource}/`, { Ref: logicalId }],
  ],
});

beforeAll(() => {
  stack = synthStack();
  template = Template.fromStack(stack);
  const mailer = present(stack.mailer, 'mailer');
  const sender = present(stack.mailSender, 'mail sender');
  ids = {
    table: logicalIdOf(stack.waitlist.table),
    mailerRole: logicalIdOf(present(mailer.handler.role, 'mailer role')),
    mailLimitTable: logicalIdOf(mailer.mailLimitTable),
    identity: logicalIdOf(sender.identity),
    configurationSet: logicalIdOf(sender.configurationSet),
  };
});

describe('the waitlist table, with confirmation by mail', () => {
  it('streams the old and the new image of every change: the mailer tells a new mail request from its own updates', () => {
    expect(resourceOf(template, ids.table).Properties.StreamSpecification).toEqual({
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    });
  });
});

describe('the mailer’s sending', () => {
  it('may send to no recipient’s identity unless SES sandbox recipients are given', () => {
    const sending = statementsOf(template, ids.mailerRole).find(({ Action }) =>
      [Action].flat().includes('ses:SendEmail'),
    );
    expect(JSON.stringify(sending?.Resource)).not.toContain('@');
    expect(sending?.Resource).toEqual([sesArn('identity', ids.identity), expect.anything()]);
  });
});

describe('the mail limit table', () => {
  const mailLimitTable = () => resourceOf(template, ids.mailLimitTable);

  it('is on demand, encrypted with the AWS managed key', () => {
    expect(mailLimitTable().Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      SSESpecification: { SSEEnabled: true },
    });
  });

  it('deletes each count when its window ends', () => {
    expect(mailLimitTable().Properties.TimeToLiveSpecification).toEqual({
      AttributeName: MAIL_LIMIT_EXPIRY_ATTRIBUTE,
      Enabled: true,
    });
  });

  it('outlives the stack, as the waitlist does, since it keeps the suppressed mailboxes for good', () => {
    expect([mailLimitTable().DeletionPolicy, mailLimitTable().UpdateReplacePolicy]).toEqual([
      'Retain',
      'Retain',
    ]);
    expect(resourceOf(template, ids.table).DeletionPolicy).toBe('Retain');
  });
});

describe('sending with SES', () => {
  it('verifies the sender’s domain as an identity that signs with Easy DKIM, 2048-bit keys', () => {
    expect(only('AWS::SES::EmailIdentity').Properties).toMatchObject({
      EmailIdentity: 'mandje.nl',
      DkimAttributes: { SigningEnabled: true },
      DkimSigningAttributes: { NextSigningKeyLength: 'RSA_2048_BIT' },
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: ids.configurationSet } },
    });
  });

  it('gives the three DKIM CNAME records as outputs when no hosted zone is given', () => {
    const outputs = template.findOutputs('*');
    expect(Object.keys(outputs).filter((name) => name.startsWith('Dkim'))).toEqual([
      'DkimRecord1',
      'DkimRecord2',
      'DkimRecord3',
    ]);
    for (const n of [1, 2, 3])
      expect(outputs[`DkimRecord${n}`]?.Value).toEqual({
        'Fn::Join': [
          '',
          [
            { 'Fn::GetAtt': [ids.identity, `DkimDNSTokenName${n}`] },
            ' CNAME ',
            { 'Fn::GetAtt': [ids.identity, `DkimDNSTokenValue${n}`] },
          ],
        ],
      });
    template.resourceCountIs('AWS::Route53::RecordSet', 0);
  });

  it('sends from the custom MAIL FROM domain mail.<sender’s domain>, falling back to SES’s own while its MX record is missing', () => {
    expect(only('AWS::SES::EmailIdentity').Properties.MailFromAttributes).toEqual({
      MailFromDomain: 'mail.mandje.nl',
      BehaviorOnMxFailure: 'USE_DEFAULT_VALUE',
    });
  });

  it('gives the MAIL FROM domain’s MX and SPF records and the DMARC record as outputs when no hosted zone is given', () => {
    const outputs = template.findOutputs('*');
    expect(outputs.MailFromMxRecord?.Value).toBe(
      'mail.mandje.nl MX 10 feedback-smtp.eu-west-1.amazonses.com',
    );
    expect(outputs.MailFromSpfRecord?.Value).toBe('mail.mandje.nl TXT "v=spf1 include:amazonses.com ~all"');
    expect(outputs.DmarcRecord?.Value).toBe(
      `_dmarc.mandje.nl TXT "v=DMARC1; p=quarantine; rua=mailto:${siteConfig.contactEmail}"`,
    );
  });

  it('sends through a configuration set that keeps reputation metrics and suppresses bounces and complaints', () => {
    expect(only('AWS::SES::ConfigurationSet').Properties).toEqual({
      ReputationOptions: { ReputationMetricsEnabled: true },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
  });
});
