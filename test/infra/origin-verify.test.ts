import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';
import type { MandjeStack } from '../../infra/mandje-stack';
import { synthStack } from './synth';
import { distributionConfigOf, logicalIdOf, present, resourceOf } from './template-queries';

let stack: MandjeStack;
let template: Template;
let secretReference: unknown;

type Origin = {
  Id: string;
  S3OriginConfig?: unknown;
  OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[];
};
const origins = () => distributionConfigOf(template).Origins as Origin[];
const environmentOf = (handler: Parameters<typeof logicalIdOf>[0]) =>
  (
    resourceOf(template, logicalIdOf(handler)).Properties.Environment as {
      Variables: Record<string, unknown>;
    }
  ).Variables;

beforeAll(() => {
  stack = synthStack();
  template = Template.fromStack(stack);
  // A dynamic reference to the secret, which CloudFormation resolves at deploy time.
  secretReference = {
    'Fn::Join': [
      '',
      ['{{resolve:secretsmanager:', { Ref: logicalIdOf(stack.originVerifySecret) }, ':SecretString:::}}'],
    ],
  };
});

it('generates the secret in Secrets Manager, letters and digits only, long enough not to be guessed', () => {
  const secret = resourceOf(template, logicalIdOf(stack.originVerifySecret)).Properties;
  expect(secret.GenerateSecretString).toMatchObject({ ExcludePunctuation: true });
  expect((secret.GenerateSecretString as { PasswordLength: number }).PasswordLength).toBeGreaterThanOrEqual(
    32,
  );
  expect(secret.SecretString).toBeUndefined();
});

it('has CloudFront send the secret in the origin header to the API, and to the bucket nothing', () => {
  const [s3, api] = [origins().filter((o) => o.S3OriginConfig), origins().filter((o) => !o.S3OriginConfig)];
  expect(api).toHaveLength(1);
  expect(api[0]?.OriginCustomHeaders).toEqual([
    { HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: secretReference },
  ]);
  expect(s3[0]?.OriginCustomHeaders).toBeUndefined();
});

it('tells the API function the secret, to refuse requests without it', () => {
  expect(environmentOf(stack.waitlist.handler).ORIGIN_VERIFY_SECRET).toEqual(secretReference);
});

it('tells the API function the site’s origin, the distribution’s own domain, to refuse other sites’ posts', () => {
  const origin = {
    'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalIdOf(stack.site.distribution), 'DomainName'] }]],
  };
  expect(environmentOf(stack.waitlist.handler).SITE_ORIGINS).toEqual(origin);
});

it('keeps the secret from the functions that answer no request: the mailer and the mail-events function', () => {
  for (const handler of [
    present(stack.mailer, 'mailer').handler,
    present(stack.mailEvents, 'mail events').handler,
  ])
    expect(JSON.stringify(environmentOf(handler))).not.toContain('secretsmanager');
});
