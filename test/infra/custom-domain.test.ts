import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, expect, it } from 'vitest';
import type { MandjeStack } from '../../infra/mandje-stack';
import { synthStack } from './synth';
import { logicalIdOf, resourceOf } from './template-queries';

const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555';

let stack: MandjeStack;
let template: Template;

beforeAll(() => {
  stack = synthStack({ domain: { names: ['mandje.nl', 'www.mandje.nl'], certificateArn } });
  template = Template.fromStack(stack);
});

it('serves a custom domain with its us-east-1 certificate and TLS 1.2 (2021) at least', () => {
  template.hasResourceProperties('AWS::CloudFront::Distribution', {
    DistributionConfig: {
      Aliases: ['mandje.nl', 'www.mandje.nl'],
      ViewerCertificate: {
        AcmCertificateArn: certificateArn,
        MinimumProtocolVersion: 'TLSv1.2_2021',
        SslSupportMethod: 'sni-only',
      },
    },
  });
  expect(template.findOutputs('SiteUrl').SiteUrl?.Value).toBe('https://mandje.nl');
});

it('tells the functions every origin the site is served at: the distribution’s domain and each custom domain', () => {
  const { Variables } = resourceOf(template, logicalIdOf(stack.waitlist.handler)).Properties.Environment as {
    Variables: Record<string, unknown>;
  };
  expect(Variables.SITE_ORIGINS).toEqual({
    'Fn::Join': [
      '',
      [
        'https://',
        { 'Fn::GetAtt': [logicalIdOf(stack.site.distribution), 'DomainName'] },
        ',https://mandje.nl,https://www.mandje.nl',
      ],
    ],
  });
});
