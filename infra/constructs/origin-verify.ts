import { RemovalPolicy } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';

/**
 * Raise by one to rotate the secret (docs/deploying.md): CloudFormation reads its value into the
 * distribution and the functions only when they are updated, so a new generation is a new secret, which the
 * same deploy hands to them all before it deletes the old one.
 */
const ORIGIN_VERIFY_GENERATION = 1;

/** The secret CloudFront sends to the API in ORIGIN_VERIFY_HEADER. */
export class OriginVerifySecret extends Construct {
  public readonly secret: Secret;
  public readonly header = ORIGIN_VERIFY_HEADER;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new Secret(this, `Generation${ORIGIN_VERIFY_GENERATION}`, {
      description: `Mandje: the value CloudFront sends to the API in ${ORIGIN_VERIFY_HEADER}`,
      // Letters and digits only: it travels as a header value and an environment variable, unquoted.
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      // A generation left behind protects nothing.
      removalPolicy: RemovalPolicy.DESTROY,
    });
  }

  /** A dynamic reference resolved at deploy time, as CloudFront's origin header needs. */
  get value(): string {
    return this.secret.secretValue.unsafeUnwrap();
  }
}
