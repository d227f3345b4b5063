import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { Annotations, Duration, Fn } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';
import { HSTS_MAX_AGE_SECONDS, readInlineHashes, securityHeaders } from '#contract/security-headers';
import { CACHE_CONTROL, cacheControlFor, fileTypeOf, isServedFile, siteMapOf } from '#contract/site-serving';

/** A page's other spellings answer 301; everything else is rewritten to the object routeRequest names. */
const ROUTE = `
function handler(event) {
  var request = event.request;
  var route = site.routeRequest(request.uri, SITE_MAP);
  if (route.kind === 'redirect') {
    var query = [];
    for (var name in request.querystring) {
      var entry = request.querystring[name];
      var values = entry.multiValue ? entry.multiValue : [entry];
      for (var i = 0; i < values.length; i++) query.push(values[i].value === '' ? name : name + '=' + values[i].value);
    }
    return {
      statusCode: 301,
      statusDescription: 'Moved Permanently',
      headers: {
        location: { value: route.location + (query.length ? '?' + query.join('&') : '') },
        'cache-control': { value: site.CACHE_CONTROL.revalidate }
      }
    };
  }
  request.uri = '/' + encodeURI(route.key);
  return request;
}`;

/** The not-found page is an ordinary object in the bucket: its answer gets status 404 here. */
const NOT_FOUND_STATUS = `
function handler(event) {
  var route = site.routeRequest(event.request.uri, SITE_MAP);
  if (route.kind === 'file' && route.status === 404) {
    event.response.statusCode = 404;
    event.response.statusDescription = 'Not Found';
  }
  return event.response;
}`;

export interface StaticSiteProps {
  siteDir: string;
  /** Served under /api/* on the same domain, so the page needs no CORS. */
  api: HttpApi;
  domain?: { names: string[]; certificateArn: string };
  /** What CloudFront sends to the API in ORIGIN_VERIFY_HEADER: the API's one way in. */
  originSecret: string;
  webAclArn?: string;
}

/**
 * The page in a private S3 bucket behind CloudFront (Origin Access Control), with the API behind the same
 * distribution, which keeps no access logs: they would hold visitors' IP addresses and confirmation tokens.
 */
export class StaticSite extends Construct {
  public readonly bucket: Bucket;
  public readonly distribution: cloudfront.Distribution;
  public readonly url: string;
  public readonly origins: string[];
  public readonly hasCustomDomain: boolean;
  public readonly hasWebAcl: boolean;

  constructor(scope: Construct, id: string, props: StaticSiteProps) {
    super(scope, id);
    const files = readdirSync(props.siteDir, { recursive: true, encoding: 'utf8' })
      .map((path) => path.split(sep).join('/'))
      .filter((path) => statSync(join(props.siteDir, path)).isFile() && isServedFile(path))
      .sort();

    const privateBucket = {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
    };
    const logBucket = new Bucket(this, 'Logs', {
      ...privateBucket,
      // The bucket's server access logs are delivered by the log-delivery group's ACL (LogDeliveryWrite).
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
    });

    this.bucket = new Bucket(this, 'Content', {
      ...privateBucket,
      serverAccessLogsBucket: logBucket,
      serverAccessLogsPrefix: 's3/',
    });

    // The header list the local runner sends, as CloudFront takes it: the classic ones typed, the rest custom.
    const {
      'content-security-policy': contentSecurityPolicy,
      'strict-transport-security': _hsts,
      'x-content-type-options': _nosniff,
      'x-frame-options': _frameOptions,
      'referrer-policy': _referrerPolicy,
      ...customHeaders
    } = securityHeaders(readInlineHashes(props.siteDir));
    const headers = new cloudfront.ResponseHeadersPolicy(new Construct(this, 'SecurityHeaders'), 'Policy', {
      comment: 'Mandje security headers (contract/security-headers.ts)',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
          includeSubdomains: true,
          preload: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
      },
      customHeadersBehavior: {
        customHeaders: Object.entries(customHeaders).map(([header, value]) => ({
          header,
          value,
          override: true,
        })),
      },
    });

    // contract/site-routing.ts, as the local runner routes with it, bundled for CloudFront's runtime 2.0 as one
    // object, `site` (not Function.prototype.toString, which depends on how the host compiled TypeScript).
    const { outputFiles } = buildSync({
      stdin: {
        contents: `import { CACHE_CONTROL, routeRequest } from '../../contract/site-routing.ts';
var site = {};
site.CACHE_CONTROL = CACHE_CONTROL;
site.routeRequest = routeRequest;`,
        resolveDir: import.meta.dirname,
        loader: 'ts',
      },
      bundle: true,
      write: false,
      format: 'esm',
      // Kept whole: `site` is used by the handler that follows, which esbuild does not see.
      treeShaking: false,
      target: 'es2015',
      legalComments: 'none',
    });
    const siteCode = [
      `var SITE_MAP = ${JSON.stringify(siteMapOf(files))};`,
      ...outputFiles.map(({ text }) => text),
    ];
    const routing = (
      eventType: cloudfront.FunctionEventType,
      functionId: string,
      purpose: string,
      handler: string,
    ) => ({
      eventType,
      function: new cloudfront.Function(this, functionId, {
        code: cloudfront.FunctionCode.fromInline([...siteCode, handler].join('\n')),
        runtime: cloudfront.FunctionRuntime.JS_2_0,
        comment: `${purpose} (contract/site-routing.ts)`,
      }),
    });
    const { VIEWER_REQUEST, VIEWER_RESPONSE } = cloudfront.FunctionEventType;
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Mandje',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      webAclId: props.webAclArn,
      domainNames: props.domain?.names,
      certificate:
        props.domain && Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
      minimumProtocolVersion: props.domain && cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
      defaultBehavior: {
        // LIST lets S3 answer a missing key 404, not 403; listing stays out of reach: the cache policy
        // forwards no query string, and "/" is the default root object.
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket, {
          originAccessLevels: [cloudfront.AccessLevel.READ, cloudfront.AccessLevel.LIST],
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        compress: true,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        functionAssociations: [
          routing(VIEWER_REQUEST, 'Routing', 'Each page at its one address; other spellings 301', ROUTE),
          routing(VIEWER_RESPONSE, 'NotFoundStatus', 'Status 404 for the not-found pages', NOT_FOUND_STATUS),
        ],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: new HttpOrigin(Fn.select(2, Fn.split('/', props.api.apiEndpoint)), {
            // Replaces any header of that name the viewer sent.
            customHeaders: { [ORIGIN_VERIFY_HEADER]: props.originSecret },
          }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          // Not Host: API Gateway routes by its own. CloudFront-Viewer-Address is what visit counting hashes.
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: headers,
        },
      },
      // 404 only: error responses apply to every behaviour, and the API's own 403 and 429 must pass as sent.
      errorResponses: [
        { httpStatus: 404, responseHttpStatus: 404, responsePagePath: '/404.html', ttl: Duration.minutes(5) },
      ],
    });
    Annotations.of(this).acknowledgeWarning(
      '@aws-cdk/aws-cloudfront-origins:listBucketSecurityRisk',
      'The distribution has a default root object, and its S3 behaviour forwards no query string',
    );

    // Files go up in groups by content type and Cache-Control (contract/site-serving.ts, as the local runner
    // serves them); a kind the table does not know fails the synth rather than go out as binary/octet-stream.
    type Group = { contentType: string; cacheControl: string; files: string[] };
    const groups = new Map<string, Group>();
    for (const file of files) {
      const contentType = fileTypeOf(file)?.contentType;
      if (!contentType)
        throw new Error(
          `${file} in the built site is of a kind FILE_TYPES (contract/site-serving.ts) does not list`,
        );
      const cacheControl = cacheControlFor(file);
      const key = `${contentType}|${cacheControl}`;
      groups.set(key, { contentType, cacheControl, files: [...(groups.get(key)?.files ?? []), file] });
    }
    // Hashed assets first, so no page refers to a file not there yet; the last upload clears CloudFront's
    // cache once every other file is up. Old assets stay (no pruning), for pages still open in a browser.
    const source = Source.asset(props.siteDir);
    const isHashed = (group: Group) => group.cacheControl === CACHE_CONTROL.immutable;
    const upload = (group: Group, invalidate = false) => {
      // A construct id from the media subtype: `text/html` gives `Html`, hashed `JavascriptHashed`.
      const words = (group.contentType.split(/[/;]/)[1] ?? '').split(/[^a-z0-9]+/i);
      const name = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
      return new BucketDeployment(this, `Deploy${name}${isHashed(group) ? 'Hashed' : ''}`, {
        sources: [source],
        destinationBucket: this.bucket,
        exclude: ['*'],
        include: group.files,
        contentType: group.contentType,
        cacheControl: [CacheControl.fromString(group.cacheControl)],
        prune: false,
        ...(invalidate ? { distribution: this.distribution, distributionPaths: ['/*'] } : {}),
      });
    };
    const hashed = [...groups.values()].filter(isHashed).map((group) => upload(group));
    const named = [...groups.values()].filter((group) => !isHashed(group));
    const uploads = named.map((group, index) => upload(group, index === named.length - 1));
    for (const deployment of uploads) deployment.node.addDependency(...hashed);
    uploads.at(-1)?.node.addDependency(...uploads.slice(0, -1));

    this.hasCustomDomain = props.domain !== undefined;
    this.hasWebAcl = props.webAclArn !== undefined;
    this.url = `https://${props.domain?.names[0] ?? this.distribution.distributionDomainName}`;
    this.origins = [this.distribution.distributionDomainName, ...(props.domain?.names ?? [])].map(
      (name) => `https://${name}`,
    );
  }
}
