import { Duration, Fn } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  OriginRequestPolicy,
  PriceClass,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { SecurityHeadersPolicy } from './security-headers-policy';

export interface StaticSiteProps {
  /** The built page (dist/): prerendered HTML at the top, hashed files under assets/. */
  siteDir: string;
  /** The API served under /api/* on the same domain, so the page needs no CORS. */
  api: HttpApi;
  /** A custom domain; without one the site is served at its cloudfront.net address. */
  domain?: { names: string[]; certificate: ICertificate };
}

/**
 * Serves a folder path's index.html (`/en` and `/en/` → `/en/index.html`) from the private bucket; paths
 * with a file extension are left alone.
 */
const INDEX_REWRITE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.endsWith('/')) {
    request.uri = uri + 'index.html';
  } else if (uri.split('/').pop().indexOf('.') === -1) {
    request.uri = uri + '/index.html';
  }
  return request;
}`;

/**
 * The page in a private S3 bucket behind CloudFront (Origin Access Control), with the API behind the same
 * distribution, one security-headers policy for both, and access logs for both bucket and distribution.
 */
export class StaticSite extends Construct {
  public readonly bucket: Bucket;
  public readonly logBucket: Bucket;
  public readonly distribution: Distribution;
  public readonly url: string;
  public readonly hasCustomDomain: boolean;

  constructor(scope: Construct, id: string, props: StaticSiteProps) {
    super(scope, id);

    this.logBucket = new Bucket(this, 'Logs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      // CloudFront's standard logs are delivered with ACLs.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
    });

    this.bucket = new Bucket(this, 'Content', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 's3/',
    });

    const headers = new SecurityHeadersPolicy(this, 'SecurityHeaders').policy;
    const apiDomain = Fn.select(2, Fn.split('/', props.api.apiEndpoint));
    const apiBehavior: BehaviorOptions = {
      origin: new HttpOrigin(apiDomain),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: headers,
    };

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Mandje',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      ...(props.domain
        ? {
            domainNames: props.domain.names,
            certificate: props.domain.certificate,
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        compress: true,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        functionAssociations: [
          {
            eventType: FunctionEventType.VIEWER_REQUEST,
            function: new CloudFrontFunction(this, 'IndexRewrite', {
              code: FunctionCode.fromInline(INDEX_REWRITE),
              runtime: FunctionRuntime.JS_2_0,
              comment: 'Serve index.html for folder paths',
            }),
          },
        ],
      },
      additionalBehaviors: { '/api/*': apiBehavior },
      // Without ListBucket, S3 answers a missing key with 403; both become the not-found page.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 404,
        responsePagePath: '/404.html',
        ttl: Duration.minutes(5),
      })),
    });

    // Hashed assets never change under their name: cached for a year. Everything else is revalidated.
    const assets = new BucketDeployment(this, 'DeployAssets', {
      sources: [Source.asset(props.siteDir)],
      destinationBucket: this.bucket,
      include: ['assets/*'],
      exclude: ['*'],
      cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
      prune: false,
    });
    const pages = new BucketDeployment(this, 'DeployPages', {
      sources: [Source.asset(props.siteDir)],
      destinationBucket: this.bucket,
      // The build manifest (.vite/) is for the bundle budgets, not for visitors.
      exclude: ['assets/*', '.vite/*'],
      cacheControl: [CacheControl.noCache()],
      prune: false,
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });
    // The pages refer to the assets: upload those first, so no page points at a missing file.
    pages.node.addDependency(assets);

    this.hasCustomDomain = props.domain !== undefined;
    this.url = `https://${props.domain?.names[0] ?? this.distribution.distributionDomainName}`;
  }
}
