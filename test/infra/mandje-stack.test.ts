import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../infra/security-headers';
import { synthStack } from './synth';

// CloudFront's managed policies, by their fixed IDs.
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let template: Template;
let tableLogicalId: string;

type Resource = {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};
const only = (type: string): Resource => {
  const all = Object.values(template.findResources(type)) as Resource[];
  expect(all, type).toHaveLength(1);
  return all[0] as Resource;
};
const distributionConfig = () =>
  only('AWS::CloudFront::Distribution').Properties.DistributionConfig as Record<string, unknown>;

beforeAll(() => {
  const stack = synthStack();
  template = Template.fromStack(stack);
  tableLogicalId = Object.keys(template.findResources('AWS::DynamoDB::Table'))[0] as string;
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

  it('is served over HTTPS only, with HTTP/2 and 3, compression and access logs', () => {
    const config = distributionConfig();
    expect(config).toMatchObject({
      HttpVersion: 'http2and3',
      DefaultRootObject: 'index.html',
      Logging: expect.objectContaining({ Prefix: 'cloudfront/' }),
      DefaultCacheBehavior: expect.objectContaining({
        ViewerProtocolPolicy: 'redirect-to-https',
        Compress: true,
      }),
    });
  });

  it('answers unknown paths with 404.html and status 404', () => {
    expect(distributionConfig().CustomErrorResponses).toEqual([
      { ErrorCode: 403, ResponseCode: 404, ResponsePagePath: '/404.html', ErrorCachingMinTTL: 300 },
      { ErrorCode: 404, ResponseCode: 404, ResponsePagePath: '/404.html', ErrorCachingMinTTL: 300 },
    ]);
  });

  it('maps folder paths to their index.html with a viewer-request CloudFront Function', () => {
    const fn = only('AWS::CloudFront::Function').Properties;
    const rewrite = new Function(`${fn.FunctionCode as string}; return handler;`)() as (event: {
      request: { uri: string };
    }) => { uri: string };
    const uriFor = (uri: string) => rewrite({ request: { uri } }).uri;

    expect(uriFor('/')).toBe('/index.html');
    expect(uriFor('/en')).toBe('/en/index.html');
    expect(uriFor('/en/')).toBe('/en/index.html');
    expect(uriFor('/no-such-page')).toBe('/no-such-page/index.html');
    expect(uriFor('/assets/index-abc123.js')).toBe('/assets/index-abc123.js');
    expect(uriFor('/404.html')).toBe('/404.html');
    expect(distributionConfig().DefaultCacheBehavior).toMatchObject({
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: expect.anything() }],
    });
  });

  it('caches hashed assets for a year and revalidates everything else', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      Include: ['assets/*'],
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      Exclude: ['assets/*', '.vite/*'],
      SystemMetadata: { 'cache-control': 'no-cache' },
      DistributionPaths: ['/*'],
    });
  });
});

describe('security headers', () => {
  it('sends the Content-Security-Policy of infra/security-headers.ts, strict for scripts', () => {
    const policy = only('AWS::CloudFront::ResponseHeadersPolicy').Properties
      .ResponseHeadersPolicyConfig as Record<string, unknown>;
    const { ContentSecurityPolicy: csp } = policy.SecurityHeadersConfig as {
      ContentSecurityPolicy: { ContentSecurityPolicy: string };
    };

    expect(csp.ContentSecurityPolicy).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-(inline|eval)/);
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");
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
      FrameOptions: { FrameOption: SECURITY_HEADERS['x-frame-options'], Override: true },
      ReferrerPolicy: { ReferrerPolicy: SECURITY_HEADERS['referrer-policy'], Override: true },
    });
    expect(SECURITY_HEADERS['strict-transport-security']).toBe(
      'max-age=63072000; includeSubDomains; preload',
    );
    expect(SECURITY_HEADERS['x-content-type-options']).toBe('nosniff');
    const custom = (policy.CustomHeadersConfig as { Items: { Header: string; Value: string }[] }).Items;
    expect(Object.fromEntries(custom.map(({ Header, Value }) => [Header, Value]))).toEqual({
      'permissions-policy': SECURITY_HEADERS['permissions-policy'],
      'cross-origin-opener-policy': SECURITY_HEADERS['cross-origin-opener-policy'],
      'cross-origin-resource-policy': SECURITY_HEADERS['cross-origin-resource-policy'],
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
  it('is the /api/* behaviour of the same distribution, uncached, with every viewer header but Host', () => {
    expect(distributionConfig().CacheBehaviors).toEqual([
      expect.objectContaining({
        PathPattern: '/api/*',
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        ViewerProtocolPolicy: 'redirect-to-https',
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      }),
    ]);
  });

  it('has exactly one route: POST /api/waitlist', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')) as Resource[];
    expect(routes.map((route) => route.Properties.RouteKey)).toEqual(['POST /api/waitlist']);
  });

  it('throttles its default stage, steady rate and burst both set', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
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
    expect(retentions).toEqual([90, 90]);
  });
});

describe('the waitlist function', () => {
  it('runs Node.js 24 on arm64 with the table name in its environment', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      MemorySize: 256,
      Timeout: 10,
      Environment: {
        Variables: { TABLE_NAME: { Ref: tableLogicalId }, NODE_OPTIONS: '--enable-source-maps' },
      },
      LoggingConfig: { LogGroup: Match.anyValue() },
    });
  });

  it('may put items in the table and nothing else in DynamoDB', () => {
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
      (policy) =>
        (
          (policy as Resource).Properties.PolicyDocument as {
            Statement: { Action: string | string[]; Resource: unknown }[];
          }
        ).Statement,
    );
    const dynamo = statements.filter((statement) =>
      [statement.Action].flat().some((action) => action.startsWith('dynamodb:')),
    );
    expect(dynamo).toEqual([
      { Action: 'dynamodb:PutItem', Effect: 'Allow', Resource: { 'Fn::GetAtt': [tableLogicalId, 'Arn'] } },
    ]);
  });

  it('has a role with no managed policies: its own log writes and the put, written out', () => {
    const handlerRole = Object.values(template.findResources('AWS::IAM::Role')).find((role) =>
      String((role as Resource).Properties.Description ?? '').startsWith('Waitlist handler'),
    ) as Resource;
    expect(handlerRole.Properties.ManagedPolicyArns).toBeUndefined();
  });
});

describe('the waitlist table', () => {
  it('is keyed on the string email, on demand, with point-in-time recovery and deletion protection', () => {
    const table = only('AWS::DynamoDB::Table');
    expect(table.Properties).toEqual(
      expect.objectContaining({
        KeySchema: [{ AttributeName: 'email', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'email', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      }),
    );
  });

  it('deletes each record when its expiresAt passes, as the privacy notice promises', () => {
    expect(only('AWS::DynamoDB::Table').Properties.TimeToLiveSpecification).toEqual({
      AttributeName: 'expiresAt',
      Enabled: true,
    });
  });

  it('is retained when the stack is deleted or the table replaced', () => {
    const table = only('AWS::DynamoDB::Table');
    expect([table.DeletionPolicy, table.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
  });
});

describe('outputs', () => {
  it('name the site URL, the waitlist endpoint and the table', () => {
    expect(Object.keys(template.findOutputs('*')).sort()).toEqual([
      'SiteUrl',
      'TableName',
      'WaitlistEndpoint',
    ]);
  });
});
