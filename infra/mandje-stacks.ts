import { type App, CrossStackReferences, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ClientRateLimit } from './constructs/client-rate-limit';
import { MandjeStack, type MandjeStackProps } from './mandje-stack';

/** The companion of the Mandje stack in us-east-1, where CloudFront takes its web ACL from. */
export class MandjeEdgeStack extends Stack {
  public readonly clientRateLimit: ClientRateLimit;

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, props);
    this.clientRateLimit = new ClientRateLimit(this, 'ClientRateLimit', `${id}-client-rate-limit`);
    // A weak reference: CloudFormation reads the output itself, where a strong one would need a custom
    // resource (a Lambda function) in each stack. WAF refuses to delete a web ACL a distribution still uses.
    CrossStackReferences.of(this.clientRateLimit.webAcl).produce(ReferenceStrength.WEAK);
  }
}

export interface MandjeStacksProps extends Omit<MandjeStackProps, 'webAclArn'> {
  /** The per-client limit at the edge: AWS WAF in a companion stack in us-east-1. */
  waf: boolean;
  /** The region must be known, for the edge stack's reference. */
  env: { account?: string; region: string };
}

/** The stacks of one deployment, in the order `cdk deploy --all` deploys them. */
export function addMandjeStacks(app: App, { waf, ...props }: MandjeStacksProps) {
  const edge = waf
    ? new MandjeEdgeStack(app, 'MandjeEdge', {
        description:
          'Mandje: the per-client limit at the edge (AWS WAF for CloudFront, which lives in us-east-1)',
        env: { account: props.env.account, region: 'us-east-1' },
      })
    : undefined;
  return {
    mandje: new MandjeStack(app, 'Mandje', { ...props, webAclArn: edge?.clientRateLimit.webAcl.attrArn }),
    edge,
  };
}
