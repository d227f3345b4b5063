import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, expect, it } from 'vitest';
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

it('creates the three DKIM CNAME records in the given hosted zone', () => {
  const identity = logicalIdOf(present(stack.mailSender, 'mail sender').identity);
  const records = (Object.values(template.findResources('AWS::Route53::RecordSet')) as Resource[]).map(
    (record) => record.Properties,
  );
  expect(records).toEqual(
    [1, 2, 3].map((n) => ({
      HostedZoneId: HOSTED_ZONE.id,
      Type: 'CNAME',
      Name: { 'Fn::GetAtt': [identity, `DkimDNSTokenName${n}`] },
      ResourceRecords: [{ 'Fn::GetAtt': [identity, `DkimDNSTokenValue${n}`] }],
      TTL: '1800',
    })),
  );
});

it('leaves the DKIM records out of the outputs, as there is nothing to add by hand', () => {
  expect(Object.keys(template.findOutputs('*')).filter((name) => name.startsWith('Dkim'))).toEqual([]);
});
