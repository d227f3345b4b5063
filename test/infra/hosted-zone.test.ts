import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG as siteConfig } from '#contract/site-config';
import type { MandjeStack } from '../../infra/mandje-stack';
import { MAIL_FROM, synthStack } from './synth';
import { logicalIdOf, present, type Resource } from './template-queries';

const HOSTED_ZONE = { name: 'mandje.nl', id: 'Z0123456789ABCDEFGHIJ' };

let stack: MandjeStack;
let template: Template;

beforeAll(() => {
  stack = synthStack({ confirmation: { mailFrom: MAIL_FROM, hostedZone: HOSTED_ZONE } });
  template = Template.fromStack(stack);
});

const records = () =>
  (Object.values(template.findResources('AWS::Route53::RecordSet')) as Resource[]).map(
    (record) => record.Properties,
  );

it('creates the three DKIM CNAME records in the given hosted zone', () => {
  const identity = logicalIdOf(present(stack.mailSender, 'mail sender').identity);
  expect(records().filter((record) => record.Type === 'CNAME')).toEqual(
    [1, 2, 3].map((n) => ({
      HostedZoneId: HOSTED_ZONE.id,
      Type: 'CNAME',
      Name: { 'Fn::GetAtt': [identity, `DkimDNSTokenName${n}`] },
      ResourceRecords: [{ 'Fn::GetAtt': [identity, `DkimDNSTokenValue${n}`] }],
      TTL: '1800',
    })),
  );
});

it('creates the MAIL FROM domain’s MX record, to SES’s feedback endpoint in the stack’s region, and its SPF record', () => {
  const mailFrom = records().filter((record) => record.Name === 'mail.mandje.nl');
  expect(mailFrom).toEqual([
    {
      HostedZoneId: HOSTED_ZONE.id,
      Name: 'mail.mandje.nl',
      Type: 'MX',
      ResourceRecords: ['10 feedback-smtp.eu-west-1.amazonses.com'],
      TTL: '1800',
    },
    {
      HostedZoneId: HOSTED_ZONE.id,
      Name: 'mail.mandje.nl',
      Type: 'TXT',
      ResourceRecords: ['"v=spf1 include:amazonses.com ~all"'],
      TTL: '1800',
    },
  ]);
});

it('creates the DMARC record beside the DKIM ones: quarantine, aggregate reports to the contact address', () => {
  expect(records().filter((record) => record.Name === '_dmarc.mandje.nl')).toEqual([
    {
      HostedZoneId: HOSTED_ZONE.id,
      Name: '_dmarc.mandje.nl',
      Type: 'TXT',
      ResourceRecords: [`"v=DMARC1; p=quarantine; rua=mailto:${siteConfig.contactEmail}"`],
      TTL: '1800',
    },
  ]);
});

it('leaves the mail’s DNS records out of the outputs, as there is nothing to add by hand', () => {
  expect(
    Object.keys(template.findOutputs('*')).filter((name) => /^(Dkim|MailFrom|Dmarc)/.test(name)),
  ).toEqual([]);
});
