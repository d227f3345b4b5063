import { Template } from 'aws-cdk-lib/assertions';
import { expect, it } from 'vitest';
import { synthStack } from './synth';

it('serves a custom domain with its us-east-1 certificate and TLS 1.2 (2021) at least', () => {
  const certificateArn =
    'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555';
  const template = Template.fromStack(
    synthStack({ domain: { names: ['mandje.nl', 'www.mandje.nl'], certificateArn } }),
  );

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
