import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, inlineHash, securityHeaders } from '#contract/security-headers';
import { MAILBOX_INDEX, TOKEN_INDEX } from '#contract/waitlist-table';
import type { MandjeStack } from '../../infra/mandje-stack';
import { FAKE_INLINE_STYLE, fakeSiteDir, synthStack } from './synth';
import { logicalIdOf, present, type Resource, resourceOf, statementsOf } from './template-queries';

// CloudFront's managed policies, by their fixed IDs.
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';

let stack: MandjeStack;
let template: Template;
let tableLogicalId: string;
let waitlistLogicalId: string;

const only = (type: string): Resource => {
  const all = Object.values(template.findResources(type)) as Resource[];
  expect(all, type).toHaveLength(1);
  return all[0] as Resource;
};
const distributionConfig = () =>
  only('AWS::CloudFront::Distribution').Properties.DistributionConfig as Record<string, unknown>;

beforeAll(() => {
  stack = synthStack();
  template = Template.fromStack(stack);
  tableLogicalId = logicalIdOf(stack.waitlist.table);
  waitlistLogicalId = logicalIdOf(stack.waitlist.handler);
});

describe('the page', () => {
  it('lives in a bucket that blocks all public access and refuses plain HTTP', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 's3/' }),
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('is read by CloudFront through Origin Access Control only', () => {
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
      }),
    });
    const s3Origin = (distributionConfig().Origins as Record<string, unknown>[]).find(
      (origin) => 'S3OriginConfig' in origin,
    );
    expect(s3Origin).toMatchObject({
      OriginAccessControlId: expect.anything(),
      S3OriginConfig: { OriginAccessIdentity: '' },
    });
  });

  it('is served over HTTPS only, with HTTP/2 and 3 and compression', () => {
    const config = distributionConfig();
    expect(config).toMatchObject({
      HttpVersion: 'http2and3',
      DefaultRootObject: 'index.html',
      DefaultCacheBehavior: expect.objectContaining({
        ViewerProtocolPolicy: 'redirect-to-https',
        Compress: true,
      }),
    });
  });

  it('keeps no access logs of the distribution, which would hold confirmation tokens and IP addresses', () => {
    expect(distributionConfig().Logging).toBeUndefined();
    for (const type of ['AWS::Logs::DeliverySource', 'AWS::Logs::DeliveryDestination', 'AWS::Logs::Delivery'])
      template.resourceCountIs(type, 0);
  });

  it('keeps the bucket’s access logs for 90 days', () => {
    const logBucket = resourceOf(template, logicalIdOf(stack.site.node.findChild('Logs')));
    expect(logBucket.Properties.LifecycleConfiguration).toEqual({
      Rules: [{ ExpirationInDays: 90, Status: 'Enabled' }],
    });
  });

  it('answers unknown paths with 404.html and status 404, and maps no other status', () => {
    expect(distributionConfig().CustomErrorResponses).toEqual([
      { ErrorCode: 404, ResponseCode: 404, ResponsePagePath: '/404.html', ErrorCachingMinTTL: 300 },
    ]);
  });

  it('lets the API’s own 403 and 429 answers through as they are, whatever their status', () => {
    const mapped = (distributionConfig().CustomErrorResponses as { ErrorCode: number }[]).map(
      ({ ErrorCode }) => ErrorCode,
    );
    expect(mapped).not.toContain(403);
    expect(mapped).not.toContain(429);
  });

  it('may list the bucket, only through this distribution, so S3 answers a missing key with 404', () => {
    const distributionArn = {
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':cloudfront::',
          { Ref: 'AWS::AccountId' },
          ':distribution/',
          { Ref: logicalIdOf(stack.site.distribution) },
        ],
      ],
    };
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logicalIdOf(stack.site.bucket) },
      PolicyDocument: {
        Statement: Match.arrayWith([
          {
            Effect: 'Allow',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Action: ['s3:GetObject', 's3:ListBucket'],
            Resource: [
              { 'Fn::Join': ['', [{ 'Fn::GetAtt': [logicalIdOf(stack.site.bucket), 'Arn'] }, '/*']] },
              { 'Fn::GetAtt': [logicalIdOf(stack.site.bucket), 'Arn'] },
            ],
            Condition: { StringEquals: { 'AWS:SourceArn': distributionArn } },
          },
        ]),
      },
    });
  });

  it('routes every request with viewer functions built from contract/site-routing.ts, 404 status included', () => {
    const functions = Object.values(template.findResources('AWS::CloudFront::Function')) as Resource[];
    const codeOf = (comment: RegExp) => {
      const found = functions.find((fn) =>
        comment.test(String((fn.Properties.FunctionConfig as { Comment: string }).Comment)),
      );
      return new Function(`${found?.Properties.FunctionCode as string}; return handler;`)() as (
        event: unknown,
      ) => Record<string, unknown>;
    };
    const viewerRequest = codeOf(/one address/);
    const viewerResponse = codeOf(/404/);
    const request = (uri: string) => viewerRequest({ request: { uri, querystring: {} } });
    const statusOf = (uri: string) =>
      (
        viewerResponse({ request: { uri, querystring: {} }, response: { statusCode: 200 } }) as {
          statusCode: number;
        }
      ).statusCode;

    expect(request('/')).toMatchObject({ uri: '/index.html' });
    expect(request('/index.html')).toMatchObject({ statusCode: 301, headers: { location: { value: '/' } } });
    expect(request('/assets/index-abc123.js')).toMatchObject({ uri: '/assets/index-abc123.js' });
    expect(request('/no-such-page')).toMatchObject({ uri: '/404.html' });
    expect(request('/en/no-such-page')).toMatchObject({ uri: '/en/404.html' });
    expect(statusOf('/no-such-page')).toBe(404);
    expect(statusOf('/')).toBe(200);
    expect(distributionConfig().DefaultCacheBehavior).toMatchObject({
      FunctionAssociations: [
        { EventType: 'viewer-request', FunctionARN: expect.anything() },
        { EventType: 'viewer-response', FunctionARN: expect.anything() },
      ],
    });
    for (const fn of functions)
      expect(fn.Properties.FunctionConfig).toMatchObject({ Runtime: 'cloudfront-js-2.0' });
  });

  it('gives the viewer functions only syntax CloudFront’s runtime 2.0 has, within its 10 KB', () => {
    for (const fn of Object.values(template.findResources('AWS::CloudFront::Function')) as Resource[]) {
      const code = fn.Properties.FunctionCode as string;
      expect(Buffer.byteLength(code)).toBeLessThan(10 * 1024);
      for (const unsupported of [
        /\bfor\s*\([^)]*\bof\b/,
        /\?\?/,
        /\?\./,
        /Object\.hasOwn\(/,
        /\.startsWith\(/,
        /\.endsWith\(/,
        /\.includes\(/,
        /\bclass\s/,
        /\bimport\b/,
        /\bexport\b/,
        /\{\s*\w+\s*,\s*\w+\s*\}/,
      ])
        expect(code, String(unsupported)).not.toMatch(unsupported);
    }
  });

  it('uploads each kind of file with its content type and Cache-Control from contract/site-serving.ts', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      Include: ['assets/index-abc123.js'],
      Exclude: ['*'],
      SystemMetadata: {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=31536000, immutable',
      },
    });
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      Include: ['404.html', 'index.html'],
      Exclude: ['*'],
      SystemMetadata: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
      DistributionPaths: ['/*'],
    });
    // Build metadata is never uploaded.
    for (const deployment of Object.values(
      template.findResources('Custom::CDKBucketDeployment'),
    ) as Resource[])
      expect(JSON.stringify(deployment.Properties.Include)).not.toContain('.mandje');
  });

  it('refuses to synthesize a site holding a kind of file it has no content type for', () => {
    const siteDir = fakeSiteDir();
    writeFileSync(join(siteDir, 'notes.docx'), 'x');
    expect(() => synthStack({ siteDir })).toThrow(/notes\.docx .* FILE_TYPES/);
  });
});

describe('security headers', () => {
  it('sends the Content-Security-Policy of contract/security-headers.ts, strict for scripts, with the pages’ style hashes', () => {
    const policy = only('AWS::CloudFront::ResponseHeadersPolicy').Properties
      .ResponseHeadersPolicyConfig as Record<string, unknown>;
    const { ContentSecurityPolicy: csp } = policy.SecurityHeadersConfig as {
      ContentSecurityPolicy: { ContentSecurityPolicy: string };
    };
    const styleHash = inlineHash(FAKE_INLINE_STYLE);

    expect(csp.ContentSecurityPolicy).toBe(contentSecurityPolicy({ styles: [styleHash], scripts: [] }));
    expect(csp.ContentSecurityPolicy).toContain(`style-src 'self' ${styleHash}`);
    expect(csp.ContentSecurityPolicy).toContain("script-src 'self'");
    expect(csp.ContentSecurityPolicy).not.toMatch(/unsafe-(inline|eval|hashes)/);
    expect(csp.ContentSecurityPolicy).toContain("frame-ancestors 'none'");
    expect(csp.ContentSecurityPolicy).toContain("connect-src 'self'");
  });

  it('refuses to synthesize a site whose page has an inline style the build did not list', () => {
    expect(() => synthStack({ siteDir: fakeSiteDir({ listStyleHash: false }) })).toThrow(
      /has an inline style that .* does not list/,
    );
  });

  it('sends HSTS, nosniff, the referrer policy, DENY framing and the rest as the local runner does', () => {
    const policy = only('AWS::CloudFront::ResponseHeadersPolicy').Properties
      .ResponseHeadersPolicyConfig as Record<string, unknown>;
    expect(policy.SecurityHeadersConfig).toMatchObject({
      StrictTransportSecurity: {
        AccessControlMaxAgeSec: 63072000,
        IncludeSubdomains: true,
        Preload: true,
        Override: true,
      },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: securityHeaders()['x-frame-options'], Override: true },
      ReferrerPolicy: { ReferrerPolicy: securityHeaders()['referrer-policy'], Override: true },
    });
    expect(securityHeaders()['strict-transport-security']).toBe(
      'max-age=63072000; includeSubDomains; preload',
    );
    expect(securityHeaders()['x-content-type-options']).toBe('nosniff');
    const custom = (policy.CustomHeadersConfig as { Items: { Header: string; Value: string }[] }).Items;
    expect(Object.fromEntries(custom.map(({ Header, Value }) => [Header, Value]))).toEqual({
      'permissions-policy': securityHeaders()['permissions-policy'],
      'cross-origin-opener-policy': securityHeaders()['cross-origin-opener-policy'],
      'cross-origin-resource-policy': securityHeaders()['cross-origin-resource-policy'],
    });
  });

  it('applies the same policy to the page and the API', () => {
    const config = distributionConfig() as unknown as {
      DefaultCacheBehavior: { ResponseHeadersPolicyId: unknown };
      CacheBehaviors: { ResponseHeadersPolicyId: unknown }[];
    };
    expect(config.CacheBehaviors[0]?.ResponseHeadersPolicyId).toEqual(
      config.DefaultCacheBehavior.ResponseHeadersPolicyId,
    );
  });
});

describe('the waitlist API', () => {
  // Which headers reach it (every viewer header but Host, which API Gateway would refuse) is held on the
  // production path (test/aws), which applies the behaviour's origin request policy.
  it('is the /api/* behaviour of the same distribution, uncached', () => {
    expect(distributionConfig().CacheBehaviors).toEqual([
      expect.objectContaining({
        PathPattern: '/api/*',
        CachePolicyId: CACHING_DISABLED,
        ViewerProtocolPolicy: 'redirect-to-https',
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      }),
    ]);
  });

  it('has exactly the waitlist’s, the visit beacon’s, the confirm and the leave routes, each to the one API function: POST /api/waitlist and /api/visit, GET, HEAD and POST /api/confirm and /api/leave, POST /api/leave-request', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')) as Resource[];
    expect(routes.map((route) => route.Properties.RouteKey).sort()).toEqual([
      'GET /api/confirm',
      'GET /api/leave',
      'HEAD /api/confirm',
      'HEAD /api/leave',
      'POST /api/confirm',
      'POST /api/leave',
      'POST /api/leave-request',
      'POST /api/visit',
      'POST /api/waitlist',
    ]);
    const integrations = Object.values(
      template.findResources('AWS::ApiGatewayV2::Integration'),
    ) as Resource[];
    expect(integrations.map((integration) => integration.Properties.IntegrationUri)).toEqual([
      { 'Fn::GetAtt': [waitlistLogicalId, 'Arn'] },
    ]);
  });

  it('throttles its default stage at the default rate for a spike, 1,000 a second and bursts of 2,000', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 },
    });
  });

  it('writes JSON access logs without source IP addresses, kept for a set time', () => {
    const stage = only('AWS::ApiGatewayV2::Stage').Properties as { AccessLogSettings: { Format: string } };
    const format = JSON.parse(stage.AccessLogSettings.Format) as Record<string, string>;
    expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status' });
    expect(stage.AccessLogSettings.Format).not.toMatch(/sourceIp|identity/i);
    const retentions = Object.values(template.findResources('AWS::Logs::LogGroup')).map(
      (group) => (group as Resource).Properties.RetentionInDays,
    );
    // The access logs and each function's logs: api, mail-requests, mailer and mail-events.
    expect(retentions).toEqual([90, 90, 90, 90, 90]);
  });
});

describe('the API function', () => {
  it('runs 10 seconds at most, with 256 MB, logging to a group of its own', () => {
    expect(resourceOf(template, waitlistLogicalId).Properties).toMatchObject({
      MemorySize: 256,
      Timeout: 10,
      LoggingConfig: { LogGroup: expect.anything() },
    });
  });

  it('may query the token and mailbox indexes (not the table), put, update, read and delete records, read and put the day’s visitors, write its own logs, and nothing else', () => {
    const handler = stack.waitlist.handler;
    const tableArn = { 'Fn::GetAtt': [tableLogicalId, 'Arn'] };
    expect(statementsOf(template, logicalIdOf(present(handler.role, 'API role')))).toEqual([
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [logicalIdOf(handler.logGroup), 'Arn'] }, ':*']] },
      },
      {
        Effect: 'Allow',
        Action: 'dynamodb:Query',
        Resource: [
          { 'Fn::Join': ['', [tableArn, `/index/${TOKEN_INDEX.name}`]] },
          { 'Fn::Join': ['', [tableArn, `/index/${MAILBOX_INDEX.name}`]] },
        ],
      },
      {
        Effect: 'Allow',
        Action: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:GetItem', 'dynamodb:DeleteItem'],
        Resource: tableArn,
      },
      {
        Effect: 'Allow',
        Action: ['dynamodb:GetItem', 'dynamodb:PutItem'],
        Resource: { 'Fn::GetAtt': [logicalIdOf(stack.waitlist.visitorTable), 'Arn'] },
      },
    ]);
  });

  it('has a role with no managed policies: its own log writes and the writes, written out', () => {
    const handlerRole = Object.values(template.findResources('AWS::IAM::Role')).find((role) =>
      String((role as Resource).Properties.Description ?? '').startsWith('Mandje API'),
    ) as Resource;
    expect(handlerRole.Properties.ManagedPolicyArns).toBeUndefined();
  });
});

describe('the waitlist table', () => {
  const waitlistTable = () => resourceOf(template, tableLogicalId);

  it('is on demand, with point-in-time recovery and deletion protection', () => {
    expect(waitlistTable().Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
    });
  });

  it('has the token index of the contract, keyed on the token hash, holding what confirming reads', () => {
    const table = waitlistTable().Properties;
    expect(table.GlobalSecondaryIndexes).toContainEqual({
      IndexName: TOKEN_INDEX.name,
      KeySchema: [{ AttributeName: TOKEN_INDEX.key.name, KeyType: 'HASH' }],
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...TOKEN_INDEX.projection] },
    });
    expect(table.AttributeDefinitions).toContainEqual({
      AttributeName: TOKEN_INDEX.key.name,
      AttributeType: TOKEN_INDEX.key.type,
    });
  });

  it('has the mailbox index of the contract, keyed on the mailbox hash, holding keys only, and no other index', () => {
    const table = waitlistTable().Properties;
    expect(table.GlobalSecondaryIndexes).toContainEqual({
      IndexName: MAILBOX_INDEX.name,
      KeySchema: [{ AttributeName: MAILBOX_INDEX.key.name, KeyType: 'HASH' }],
      Projection: { ProjectionType: 'KEYS_ONLY' },
    });
    expect(table.AttributeDefinitions).toContainEqual({
      AttributeName: MAILBOX_INDEX.key.name,
      AttributeType: MAILBOX_INDEX.key.type,
    });
    // One index more per stack update is what CloudFormation allows a deployed table.
    expect((table.GlobalSecondaryIndexes as { IndexName: string }[]).map((index) => index.IndexName)).toEqual(
      [TOKEN_INDEX.name, MAILBOX_INDEX.name],
    );
  });

  it('deletes each record when its expiresAt passes, as the privacy notice promises', () => {
    expect(waitlistTable().Properties.TimeToLiveSpecification).toEqual({
      AttributeName: 'expiresAt',
      Enabled: true,
    });
  });

  it('is retained when the stack is deleted or the table replaced', () => {
    const table = waitlistTable();
    expect([table.DeletionPolicy, table.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
  });
});

describe('outputs', () => {
  it('name the site URL, the waitlist endpoint, the table, the announcement’s queue, the mail limit’s table, the dashboard, the alarm topic and the mail’s DNS records to add', () => {
    const names = Object.keys(template.findOutputs('*'));
    expect(names.sort()).toEqual([
      'AlarmTopicArn',
      'AnnouncementQueueUrl',
      'DashboardUrl',
      'DkimRecord1',
      'DkimRecord2',
      'DkimRecord3',
      'DmarcRecord',
      'MailFromMxRecord',
      'MailFromSpfRecord',
      'MailLimitTableName',
      'SiteUrl',
      'TableName',
      'WaitlistEndpoint',
    ]);
    expect(template.findOutputs('AnnouncementQueueUrl').AnnouncementQueueUrl?.Value).toEqual({
      Ref: logicalIdOf(stack.mailer.queues.bulk),
    });
  });
});
