import { Duration } from 'aws-cdk-lib';
import { HeadersFrameOption, HeadersReferrerPolicy, ResponseHeadersPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { Construct } from 'constructs';
import { HSTS_MAX_AGE_SECONDS, type InlineHashes, securityHeaders } from '#contract/security-headers';

export interface SecurityHeadersPolicyProps {
  /** The CSP sources of the site's inline elements, as the build listed them (readInlineHashes). */
  inlineHashes: InlineHashes;
}

/**
 * CloudFront's response-headers policy built from the same header list the local runner sends.
 * CloudFront takes the classic security headers as typed settings and the rest as custom headers.
 */
export class SecurityHeadersPolicy extends Construct {
  public readonly policy: ResponseHeadersPolicy;

  constructor(scope: Construct, id: string, props: SecurityHeadersPolicyProps) {
    super(scope, id);
    const {
      'content-security-policy': contentSecurityPolicy,
      'strict-transport-security': _hsts,
      'x-content-type-options': _nosniff,
      'x-frame-options': _frameOptions,
      'referrer-policy': _referrerPolicy,
      ...customHeaders
    } = securityHeaders(props.inlineHashes);

    this.policy = new ResponseHeadersPolicy(this, 'Policy', {
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
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
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
  }
}
