// What only the template can say: who may do what, what outlives the stack, what CloudFront serves with, and
// the deploy's options. How the functions, stream, queues and SES's events work together, test/aws runs.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { inlineHash, securityHeaders } from '#contract/security-headers';
import { MAILBOX_INDEX, TOKEN_INDEX } from '#contract/waitlist-table';
import type { MandjeStack } from '../../infra/mandje-stack';
import {
  FAKE_INLINE_STYLE,
  fakeFunctionsDir,
  fakeSiteDir,
  logicalIdOf,
  propertiesOf,
  type Resource,
  resourcesOf,
  synthStacks,
} from './synth';

const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555';
const ZONE = { name: 'mandje.nl', id: 'Z0123456789ABCDEFGHIJ' };

let stack: MandjeStack;
let template: Template;
let full: Template; // Every option a deploy can set.
let fullStack: MandjeStack;

beforeAll(() => {
  stack = synthStacks().mandje;
  template = Template.fromStack(stack);
  fullStack = synthStacks({
    domain: { names: ['mandje.nl', 'www.mandje.nl'], certificateArn: CERTIFICATE },
    confirmation: { mailFrom: 'hallo@mandje.nl', hostedZone: ZONE, sesSandboxRecipients: ['ann@example.nl'] },
    capacity: { apiRateLimit: 50, apiReservedConcurrency: 4 },
  }).mandje;
  full = Template.fromStack(fullStack);
});

/** A template value written out: references by logical ID without its hash, joins joined. */
const show = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(show).join(' ');
  const json = value as { Ref?: string; 'Fn::GetAtt'?: string[]; 'Fn::Join'?: [string, unknown[]] };
  if (json.Ref) return json.Ref.replace(/[0-9A-F]{8}$/, '');
  if (json['Fn::GetAtt']) return json['Fn::GetAtt'].map((part) => part.replace(/[0-9A-F]{8}$/, '')).join('.');
  if (json['Fn::Join']) return json['Fn::Join'][1].map(show).join(json['Fn::Join'][0]);
  return JSON.stringify(value);
};

/** Each role's grants, `actions on resources`, by the role's logical ID without its hash. */
function grants(of: Template) {
  const byRole: Record<string, string[]> = {};
  for (const { Properties } of resourcesOf(of, 'AWS::IAM::Policy'))
    for (const role of Properties.Roles as unknown[])
      for (const { Action, Resource } of (
        Properties.PolicyDocument as { Statement: Record<string, unknown>[] }
      ).Statement)
        if (!show(role).startsWith('Custom'))
          byRole[show(role)] = [
            ...(byRole[show(role)] ?? []),
            `${[Action].flat().join(',')} on ${show([Resource].flat())}`,
          ];
  return byRole;
}

describe('least privilege', () => {
  it('grants each function what it does and nothing more', () => {
    const logs = (fn: string) => `logs:CreateLogStream,logs:PutLogEvents on ${fn}Logs.Arn:*`;
    const sesArn = (resource: string) => `arn:AWS::Partition:ses:eu-west-1:123456789012:${resource}`;
    const stream = 'WaitlistTable.StreamArn';
    expect(grants(template)).toEqual({
      WaitlistHandlerRole: [
        logs('WaitlistHandler'),
        `dynamodb:Query on WaitlistTable.Arn/index/${TOKEN_INDEX.name} WaitlistTable.Arn/index/${MAILBOX_INDEX.name}`,
        'dynamodb:PutItem,dynamodb:UpdateItem,dynamodb:GetItem,dynamodb:DeleteItem on WaitlistTable.Arn',
        'dynamodb:GetItem,dynamodb:PutItem on WaitlistVisitorTable.Arn',
      ],
      MailerRequestsRole: [
        logs('MailerRequests'),
        'sqs:SendMessage on MailQueuesPriorityQueue.Arn',
        'sqs:SendMessage,sqs:GetQueueAttributes,sqs:GetQueueUrl on MailerRequestsDeadLetterQueue.Arn',
        `dynamodb:ListStreams on *`,
        `dynamodb:DescribeStream,dynamodb:GetRecords,dynamodb:GetShardIterator on ${stream}`,
      ],
      MailerHandlerRole: [
        logs('MailerHandler'),
        `ses:SendEmail,ses:SendRawEmail on ${sesArn('identity/')}MailSenderIdentity ${sesArn('configuration-set/')}MailSenderConfigurationSet`,
        'ses:GetAccount on *',
        'dynamodb:GetItem,dynamodb:UpdateItem on WaitlistTable.Arn',
        'dynamodb:PutItem,dynamodb:GetItem on MailerMailLimitTable.Arn',
        'sqs:SendMessage on MailQueuesDeadLetterQueue.Arn',
        'sqs:ReceiveMessage,sqs:ChangeMessageVisibility,sqs:GetQueueUrl,sqs:DeleteMessage,sqs:GetQueueAttributes on MailQueuesPriorityQueue.Arn',
        'sqs:ReceiveMessage,sqs:ChangeMessageVisibility,sqs:GetQueueUrl,sqs:DeleteMessage,sqs:GetQueueAttributes on MailQueuesBulkQueue.Arn',
      ],
      MailEventsHandlerRole: [
        logs('MailEventsHandler'),
        'dynamodb:UpdateItem on WaitlistTable.Arn',
        'dynamodb:PutItem on MailerMailLimitTable.Arn',
        'sqs:SendMessage on MailEventsDeadLetterQueue.Arn',
      ],
    });
    for (const [id, role] of Object.entries(template.findResources('AWS::IAM::Role')))
      if (!id.startsWith('Custom')) expect(role.Properties.ManagedPolicyArns, id).toBeUndefined();
  });

  it('lets the mailer send to SES sandbox recipients’ identities only when they are given', () => {
    expect(JSON.stringify(grants(template).MailerHandlerRole)).not.toContain('@');
    expect(grants(full).MailerHandlerRole?.[1]).toContain('identity/ann@example.nl');
  });
});

describe('what outlives the stack', () => {
  it('keeps the waitlist (point-in-time recovery, deletion protection) and the suppressed mailboxes; not the day’s salt', () => {
    const resource = (construct: IConstruct) => template.toJSON().Resources[logicalIdOf(construct)];
    const retained = { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' };
    expect(resource(stack.waitlist.table)).toMatchObject({
      ...retained,
      Properties: {
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
        TimeToLiveSpecification: { AttributeName: 'expiresAt' },
      },
    });
    expect(resource(stack.mailer.mailLimitTable)).toMatchObject(retained);
    expect(resource(stack.waitlist.visitorTable).DeletionPolicy).toBe('Delete');
    expect(resource(stack.waitlist.visitorTable).Properties.PointInTimeRecoverySpecification).toBeUndefined();
  });

  it('gives up no mail after a number of receives: the mail queues have no redrive policy', () => {
    for (const queue of [stack.mailer.queues.priority, stack.mailer.queues.bulk])
      expect(propertiesOf(template, queue).RedrivePolicy).toBeUndefined();
  });
});

describe('the page and the API behind CloudFront', () => {
  const config = (of = template) =>
    resourcesOf(of, 'AWS::CloudFront::Distribution')[0]?.Properties.DistributionConfig as Record<
      string,
      unknown
    >;

  it('sends the security headers of contract/security-headers.ts on the page and the API alike', () => {
    const [policy] = resourcesOf(template, 'AWS::CloudFront::ResponseHeadersPolicy');
    const { SecurityHeadersConfig, CustomHeadersConfig } = (policy as Resource).Properties
      .ResponseHeadersPolicyConfig as {
      SecurityHeadersConfig: object;
      CustomHeadersConfig: { Items: { Header: string; Value: string }[] };
    };
    const expected = securityHeaders({ styles: [inlineHash(FAKE_INLINE_STYLE)], scripts: [] });
    expect(SecurityHeadersConfig).toMatchObject({
      ContentSecurityPolicy: { ContentSecurityPolicy: expected['content-security-policy'], Override: true },
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Preload: true },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: expected['x-frame-options'] },
      ReferrerPolicy: { ReferrerPolicy: expected['referrer-policy'] },
    });
    expect(expected['strict-transport-security']).toBe('max-age=63072000; includeSubDomains; preload');
    expect(Object.fromEntries(CustomHeadersConfig.Items.map(({ Header, Value }) => [Header, Value]))).toEqual(
      {
        'permissions-policy': expected['permissions-policy'],
        'cross-origin-opener-policy': expected['cross-origin-opener-policy'],
        'cross-origin-resource-policy': expected['cross-origin-resource-policy'],
      },
    );
    const behaviours = config() as { DefaultCacheBehavior: object; CacheBehaviors: object[] };
    const policyOf = (behaviour?: object) =>
      (behaviour as { ResponseHeadersPolicyId: unknown }).ResponseHeadersPolicyId;
    expect(policyOf(behaviours.CacheBehaviors[0])).toEqual(policyOf(behaviours.DefaultCacheBehavior));
  });

  it('generates the origin secret, letters and digits, and hands it to CloudFront and the API function only', () => {
    const secret = propertiesOf(template, stack.originVerifySecret).GenerateSecretString;
    expect(secret).toMatchObject({ ExcludePunctuation: true, PasswordLength: 48 });
    const holders = resourcesOf(template, 'AWS::Lambda::Function').filter(({ Properties }) =>
      JSON.stringify(Properties).includes('secretsmanager'),
    );
    expect(holders.map(({ Properties }) => Properties.Description)).toEqual([
      expect.stringMatching(/^Mandje API/),
    ]);
  });

  it('refuses to synthesize a site whose page has an inline style the build did not list', () => {
    expect(() => synthStacks({ siteDir: fakeSiteDir({ listStyleHash: false }) })).toThrow(
      /has an inline style that .* does not list/,
    );
  });

  it('keeps no IP address: no access logs of the distribution (tokens too), none in the API’s', () => {
    expect(config().Logging).toBeUndefined();
    template.resourceCountIs('AWS::Logs::Delivery', 0);
    const [stage] = resourcesOf(template, 'AWS::ApiGatewayV2::Stage');
    expect(JSON.stringify(stage?.Properties.AccessLogSettings)).not.toMatch(/sourceIp|identity/i);
  });

  it('maps only 404 to the not-found page: the API’s own 403 and 429 pass as sent', () => {
    expect(
      (config().CustomErrorResponses as { ErrorCode: number }[]).map(({ ErrorCode }) => ErrorCode),
    ).toEqual([404]);
  });

  it('writes the viewer functions (site-parity runs them) in the syntax and size runtime 2.0 takes', () => {
    const functions = resourcesOf(template, 'AWS::CloudFront::Function');
    for (const { Properties } of functions) {
      expect(Properties.FunctionConfig).toMatchObject({ Runtime: 'cloudfront-js-2.0' });
      const code = String(Properties.FunctionCode);
      expect(Buffer.byteLength(code)).toBeLessThan(10 * 1024);
      for (const unsupported of [
        /\bfor\s*\([^)]*\bof\b/,
        /\?\?/,
        /\?\./,
        /\.(startsWith|endsWith|includes)\(/,
      ])
        expect(code, String(unsupported)).not.toMatch(unsupported);
      expect(code).not.toMatch(/\b(class|import|export)\s/);
    }
  });

  it('uploads each kind of file with its content type (what is served, with which Cache-Control: site-parity)', () => {
    const uploads = resourcesOf(template, 'Custom::CDKBucketDeployment').map(({ Properties }) => ({
      files: Properties.Include,
      ...(Properties.SystemMetadata as object),
    }));
    expect(uploads).toContainEqual({
      files: ['assets/index-abc123.js'],
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    const siteDir = fakeSiteDir();
    writeFileSync(join(siteDir, 'notes.docx'), 'x');
    expect(() => synthStacks({ siteDir })).toThrow(/notes\.docx .* FILE_TYPES/);
  });

  it('serves a custom domain with its us-east-1 certificate, TLS 1.2 (2021) at least, and lets the API take posts from it', () => {
    expect(config(full)).toMatchObject({
      Aliases: ['mandje.nl', 'www.mandje.nl'],
      ViewerCertificate: { AcmCertificateArn: CERTIFICATE, MinimumProtocolVersion: 'TLSv1.2_2021' },
    });
    const { Variables } = propertiesOf(full, fullStack.waitlist.handler).Environment as { Variables: object };
    expect(show((Variables as { SITE_ORIGINS: unknown }).SITE_ORIGINS)).toBe(
      'https://SiteDistribution.DomainName,https://mandje.nl,https://www.mandje.nl',
    );
  });
});

describe('the deploy’s options', () => {
  it('throttles the API stage at -c apiRateLimit with bursts of twice that, and reserves what it is told', () => {
    expect(resourcesOf(full, 'AWS::ApiGatewayV2::Stage')[0]?.Properties.DefaultRouteSettings).toEqual({
      ThrottlingRateLimit: 50,
      ThrottlingBurstLimit: 100,
    });
    expect(propertiesOf(full, fullStack.waitlist.handler).ReservedConcurrentExecutions).toBe(4);
  });

  it('keeps the background functions within 6 of a new account’s 10 executions', () => {
    const mappings = resourcesOf(template, 'AWS::Lambda::EventSourceMapping').map(({ Properties }) =>
      Properties.StartingPosition
        ? Number(Properties.ParallelizationFactor ?? 1)
        : Number(
            (Properties.ScalingConfig as { MaximumConcurrency?: number })?.MaximumConcurrency ?? Infinity,
          ),
    );
    const reserved = resourcesOf(template, 'AWS::Lambda::Function').map(({ Properties }) =>
      Number(Properties.ReservedConcurrentExecutions ?? 0),
    );
    expect([...mappings, ...reserved].reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(6);
  });

  it('writes the mail’s DNS records into a hosted zone when given one, else names them as outputs, and the outputs operator/ and the docs read', () => {
    const records = resourcesOf(full, 'AWS::Route53::RecordSet').map(({ Properties }) => Properties);
    expect(records.map(({ Type }) => Type)).toEqual(['CNAME', 'CNAME', 'CNAME', 'MX', 'TXT', 'TXT']);
    expect(records.every(({ HostedZoneId }) => HostedZoneId === ZONE.id)).toBe(true);
    const dnsOutputs = (of: Template) =>
      Object.keys(of.findOutputs('*')).filter((name) => /^(Dkim|MailFrom|Dmarc)/.test(name));
    expect([dnsOutputs(template).length, dnsOutputs(full).length]).toEqual([6, 0]);
    expect(template.findOutputs('*').DmarcRecord?.Value).toMatch(
      /^_dmarc\.mandje\.nl TXT "v=DMARC1; p=quarantine;/,
    );
    const read =
      'SiteUrl WaitlistEndpoint TableName AnnouncementQueueUrl MailLimitTableName DashboardUrl AlarmTopicArn';
    expect(Object.keys(template.findOutputs('*'))).toEqual(expect.arrayContaining(read.split(' ')));
  });

  it('signs with Easy DKIM, 2048-bit, from the MAIL FROM domain, through a set that suppresses bounces and complaints', () => {
    expect(resourcesOf(template, 'AWS::SES::EmailIdentity')[0]?.Properties).toMatchObject({
      EmailIdentity: 'mandje.nl',
      DkimSigningAttributes: { NextSigningKeyLength: 'RSA_2048_BIT' },
      MailFromAttributes: { MailFromDomain: 'mail.mandje.nl', BehaviorOnMxFailure: 'USE_DEFAULT_VALUE' },
    });
    expect(resourcesOf(template, 'AWS::SES::ConfigurationSet')[0]?.Properties).toEqual({
      ReputationOptions: { ReputationMetricsEnabled: true },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
  });

  it('refuses to synthesize when a function was built without its bundle or its map', () => {
    for (const file of ['index.mjs', 'index.mjs.map']) {
      const functionsDir = fakeFunctionsDir();
      rmSync(join(functionsDir, 'mailer', file));
      expect(() => synthStacks({ functionsDir })).toThrow(`${join(functionsDir, 'mailer', file)} is missing`);
    }
  });
});
