import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { Annotations, Duration, Fn } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AccessLevel,
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
import { readInlineHashes } from '#contract/security-headers';
import { CACHE_CONTROL, cacheControlFor, fileTypeOf, isServedFile, siteMapOf } from '#contract/site-serving';
import { SecurityHeadersPolicy } from './security-headers-policy';
import { siteRoutingFunctionCode } from './site-routing-functions';

export interface StaticSiteProps {
  /** The built page (dist/): prerendered HTML at the top, hashed files under assets/. */
  siteDir: string;
  /** The API served under /api/* on the same domain, so the page needs no CORS. */
  api: HttpApi;
  /** A custom domain; without one the site is served at its cloudfront.net address. */
  domain?: { names: string[]; certificate: ICertificate };
  /** The header CloudFront adds to every request to the API, and its secret value: the API's one way in. */
  originVerify: { header: string; value: string };
  /** The AWS WAF web ACL (its ARN, in us-east-1) that limits each client's posts; none if undefined. */
  webAclArn?: string;
}

/** Every file of the built site that is served, as paths relative to it; build metadata left out. */
function siteFiles(siteDir: string): string[] {
  return readdirSync(siteDir, { recursive: true, encoding: 'utf8' })
    .map((path) => path.split(sep).join('/'))
    .filter((path) => statSync(join(siteDir, path)).isFile())
    .filter(isServedFile)
    .sort();
}

/**
 * The files grouped by how they are uploaded: one group per content type and Cache-Control pair, with
 * both taken from contract/site-serving.ts, as the local runner serves them. A file of a kind the table does
 * not know fails the synth, rather than go out as binary/octet-stream.
 */
interface UploadGroup {
  contentType: string;
  cacheControl: string;
  files: string[];
}

function uploadGroups(files: string[]): UploadGroup[] {
  const groups = new Map<string, UploadGroup>();
  for (const file of files) {
    const type = fileTypeOf(file);
    if (!type)
      throw new Error(
        `${file} in the built site is of a kind FILE_TYPES (contract/site-serving.ts) does not list`,
      );
    const cacheControl = cacheControlFor(file);
    const key = `${type.contentType}|${cacheControl}`;
    const group = groups.get(key) ?? { contentType: type.contentType, cacheControl, files: [] };
    group.files.push(file);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** A construct id for a group, from its media subtype: `text/html` gives `Html`, hashed `JavascriptHashed`. */
function deploymentName(group: UploadGroup): string {
  const subtype = group.contentType.split(';')[0]?.split('/')[1] ?? 'File';
  const words = subtype.split(/[^a-z0-9]+/i).filter(Boolean);
  const name = words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('');
  return group.cacheControl === CACHE_CONTROL.immutable ? `${name}Hashed` : name;
}

/**
 * The page in a private S3 bucket behind CloudFront (Origin Access Control), with the API behind the same
 * distribution, one security-headers policy for both, and the bucket's access logs. The distribution keeps
 * none: they would hold visitors' IP addresses and the confirmation links' tokens.
 */
export class StaticSite extends Construct {
  public readonly bucket: Bucket;
  public readonly logBucket: Bucket;
  public readonly distribution: Distribution;
  public readonly url: string;
  /** Every https origin the site is served at: the distribution's own domain and each custom domain. */
  public readonly origins: string[];
  public readonly hasCustomDomain: boolean;
  public readonly hasWebAcl: boolean;

  constructor(scope: Construct, id: string, props: StaticSiteProps) {
    super(scope, id);
    const files = siteFiles(props.siteDir);
    const siteMap = siteMapOf(files);

    this.logBucket = new Bucket(this, 'Logs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      // The bucket's server access logs are delivered by the log-delivery group's ACL (LogDeliveryWrite).
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

    const headers = new SecurityHeadersPolicy(this, 'SecurityHeaders', {
      inlineHashes: readInlineHashes(props.siteDir),
    }).policy;
    const apiDomain = Fn.select(2, Fn.split('/', props.api.apiEndpoint));
    const apiBehavior: BehaviorOptions = {
      origin: new HttpOrigin(apiDomain, {
        // Replaces any header of that name the viewer sent.
        customHeaders: { [props.originVerify.header]: props.originVerify.value },
      }),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // All the viewer's headers but Host (API Gateway routes by its own), and CloudFront's, among them
      // CloudFront-Viewer-Address: the visitor's address as CloudFront saw it, which counting visitors hashes
      // (functions/visit).
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: headers,
    };

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Mandje',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      ...(props.domain
        ? {
            domainNames: props.domain.names,
            certificate: props.domain.certificate,
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      // No access logs (the legacy logging property stays off): they would record the client's IP address
      // and the query string, which holds confirmation tokens. Visitors are counted by the API instead.
      defaultBehavior: {
        // LIST lets S3 answer a missing key with 404 rather than 403. Listing itself stays out of reach:
        // the cache policy forwards no query string, and "/" is the default root object.
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket, {
          originAccessLevels: [AccessLevel.READ, AccessLevel.LIST],
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        compress: true,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        functionAssociations: (['viewer-request', 'viewer-response'] as const).map((event) => ({
          eventType:
            event === 'viewer-request' ? FunctionEventType.VIEWER_REQUEST : FunctionEventType.VIEWER_RESPONSE,
          function: new CloudFrontFunction(this, event === 'viewer-request' ? 'Routing' : 'NotFoundStatus', {
            code: FunctionCode.fromInline(siteRoutingFunctionCode(event, siteMap)),
            runtime: FunctionRuntime.JS_2_0,
            comment:
              event === 'viewer-request'
                ? 'Each page at its one address; other spellings 301 (contract/site-routing.ts)'
                : 'Status 404 for the not-found pages (contract/site-routing.ts)',
          }),
        })),
      },
      additionalBehaviors: { '/api/*': apiBehavior },
      // 404 only: error responses apply to every behaviour, and the API's own 403 and 429 must reach the
      // visitor as the API sent them.
      errorResponses: [
        { httpStatus: 404, responseHttpStatus: 404, responsePagePath: '/404.html', ttl: Duration.minutes(5) },
      ],
    });
    Annotations.of(this).acknowledgeWarning(
      '@aws-cdk/aws-cloudfront-origins:listBucketSecurityRisk',
      'The distribution has a default root object, and its S3 behaviour forwards no query string',
    );

    // Uploaded by content type and Cache-Control (contract/site-serving.ts). Hashed assets go first, so no
    // page refers to a file that is not there yet; the last upload clears CloudFront's cache once every
    // other file is up. Earlier releases' assets stay (no pruning), for pages still open in a browser.
    const source = Source.asset(props.siteDir);
    const upload = (group: UploadGroup, invalidate = false) =>
      new BucketDeployment(this, `Deploy${deploymentName(group)}`, {
        sources: [source],
        destinationBucket: this.bucket,
        exclude: ['*'],
        include: group.files,
        contentType: group.contentType,
        cacheControl: [CacheControl.fromString(group.cacheControl)],
        prune: false,
        ...(invalidate ? { distribution: this.distribution, distributionPaths: ['/*'] } : {}),
      });
    const groups = uploadGroups(files);
    const hashed = groups
      .filter((group) => group.cacheControl === CACHE_CONTROL.immutable)
      .map((group) => upload(group));
    const named = groups.filter((group) => group.cacheControl !== CACHE_CONTROL.immutable);
    const namedUploads = named.map((group, index) => upload(group, index === named.length - 1));
    for (const [index, deployment] of namedUploads.entries()) {
      for (const assets of hashed) deployment.node.addDependency(assets);
      if (index === namedUploads.length - 1)
        for (const other of namedUploads.slice(0, -1)) deployment.node.addDependency(other);
    }

    this.hasCustomDomain = props.domain !== undefined;
    this.hasWebAcl = props.webAclArn !== undefined;
    this.url = `https://${props.domain?.names[0] ?? this.distribution.distributionDomainName}`;
    this.origins = [this.distribution.distributionDomainName, ...(props.domain?.names ?? [])].map(
      (name) => `https://${name}`,
    );
  }
}
