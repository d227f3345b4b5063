import { CrossStackReferences, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ClientRateLimit } from './constructs/client-rate-limit';

/** CloudFront takes a web ACL from us-east-1 only, whatever region the rest is in. */
export const EDGE_REGION = 'us-east-1';

export interface MandjeEdgeStackProps extends StackProps {
  env: { account?: string; region: typeof EDGE_REGION };
}

/**
 * The companion of the Mandje stack in us-east-1: the AWS WAF web ACL of its distribution. The Mandje stack
 * reads the web ACL's ARN from this stack's output with Fn::GetStackOutput, across regions.
 */
export class MandjeEdgeStack extends Stack {
  public readonly clientRateLimit: ClientRateLimit;

  constructor(scope: Construct, id: string, props: MandjeEdgeStackProps) {
    super(scope, id, props);
    this.clientRateLimit = new ClientRateLimit(this, 'ClientRateLimit', { name: `${id}-client-rate-limit` });
    // A weak reference: CloudFormation reads the output itself, where a strong one would need a custom
    // resource (a Lambda function) in each stack. WAF refuses to delete a web ACL a distribution still uses.
    CrossStackReferences.of(this.clientRateLimit.webAcl).produce(ReferenceStrength.WEAK);
  }
}
