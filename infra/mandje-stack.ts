import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { ConfirmApi } from './constructs/confirm-api';
import { StaticSite } from './constructs/static-site';
import { WaitlistApi } from './constructs/waitlist-api';

export interface MandjeStackProps extends StackProps {
  /** The built page to deploy (dist/). */
  siteDir: string;
  /** The built functions to deploy (dist-functions/), one folder each. */
  functionsDir: string;
  /** A custom domain, with an ACM certificate for it in us-east-1 (as CloudFront requires). */
  domain?: { names: string[]; certificateArn: string };
}

/** Production: the page, the waitlist API and the confirm API behind one CloudFront distribution. */
export class MandjeStack extends Stack {
  public readonly site: StaticSite;
  public readonly waitlist: WaitlistApi;
  public readonly confirmApi: ConfirmApi;

  constructor(scope: Construct, id: string, props: MandjeStackProps) {
    super(scope, id, props);

    this.waitlist = new WaitlistApi(this, 'Waitlist', {
      functionsDir: props.functionsDir,
      // A launch-day spike is people, each sending one request: 100 a second steady, bursts of 200.
      throttle: { rateLimit: 100, burstLimit: 200 },
      logRetention: RetentionDays.THREE_MONTHS,
    });
    this.confirmApi = new ConfirmApi(this, 'Confirm', {
      functionsDir: props.functionsDir,
      httpApi: this.waitlist.httpApi,
      table: this.waitlist.table,
      tokenIndexArn: this.waitlist.tokenIndexArn,
      logRetention: RetentionDays.THREE_MONTHS,
    });
    this.site = new StaticSite(this, 'Site', {
      siteDir: props.siteDir,
      api: this.waitlist.httpApi,
      ...(props.domain
        ? {
            domain: {
              names: props.domain.names,
              certificate: Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
            },
          }
        : {}),
    });

    new CfnOutput(this, 'SiteUrl', { value: this.site.url, description: 'The landing page' });
    new CfnOutput(this, 'WaitlistEndpoint', {
      value: `${this.site.url}${WAITLIST_PATH}`,
      description: 'The waitlist API, on the site’s own domain',
    });
    new CfnOutput(this, 'TableName', {
      value: this.waitlist.table.tableName,
      description: 'The waitlist table',
    });
  }
}
