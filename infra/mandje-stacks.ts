import { type App, CrossStackReferences, ReferenceStrength } from 'aws-cdk-lib';
import { MandjeEdgeLogsStack } from './edge-logs-stack';
import { EDGE_REGION, MandjeEdgeStack } from './edge-stack';
import { MandjeStack, type MandjeStackProps } from './mandje-stack';

export interface MandjeStacksProps extends Omit<MandjeStackProps, 'clientRateLimit'> {
  /** The per-client limit at the edge: AWS WAF in a companion stack in us-east-1 (`-c waf=false`: none). */
  waf: boolean;
  /** The Mandje stack's account and region; the region must be known, for the edge stacks' references. */
  env: { account?: string; region: string };
}

export interface MandjeStacks {
  mandje: MandjeStack;
  edge?: MandjeEdgeStack;
  edgeLogs: MandjeEdgeLogsStack;
}

/**
 * The stacks of one deployment, in the order `cdk deploy --all` deploys them: with WAF, MandjeEdge in
 * us-east-1, which holds the web ACL CloudFront takes from there only; Mandje; and MandjeEdgeLogs in
 * us-east-1, which logs Mandje's distribution and counts its visits.
 */
export function addMandjeStacks(app: App, props: MandjeStacksProps): MandjeStacks {
  const { waf, ...mandjeProps } = props;
  const edge = waf
    ? new MandjeEdgeStack(app, 'MandjeEdge', {
        description:
          'Mandje: the per-client limit at the edge (AWS WAF for CloudFront, which lives in us-east-1)',
        env: { account: props.env.account, region: EDGE_REGION },
      })
    : undefined;
  const mandje = new MandjeStack(app, 'Mandje', {
    ...mandjeProps,
    ...(edge ? { clientRateLimit: edge.clientRateLimit } : {}),
  });
  // Weak, as MandjeEdge's web ACL: CloudFormation reads the output itself, with no custom resource.
  CrossStackReferences.of(mandje.site.distribution).produce(ReferenceStrength.WEAK);
  const edgeLogs = new MandjeEdgeLogsStack(app, 'MandjeEdgeLogs', {
    description:
      'Mandje: the distribution’s access logs and its visits (CloudFront delivers logs from us-east-1)',
    env: { account: props.env.account, region: EDGE_REGION },
    distributionArn: mandje.site.distribution.distributionArn,
  });
  return { mandje, ...(edge ? { edge } : {}), edgeLogs };
}
