import type { App } from 'aws-cdk-lib';
import { EDGE_REGION, MandjeEdgeStack } from './edge-stack';
import { MandjeStack, type MandjeStackProps } from './mandje-stack';

export interface MandjeStacksProps extends Omit<MandjeStackProps, 'clientRateLimit'> {
  /** The per-client limit at the edge: AWS WAF in a companion stack in us-east-1 (`-c waf=false`: none). */
  waf: boolean;
  /** The Mandje stack's account and region; the region must be known, for the edge stack's reference. */
  env: { account?: string; region: string };
}

/**
 * The stacks of one deployment: Mandje, and with WAF its companion MandjeEdge in us-east-1, which holds the
 * web ACL CloudFront takes from there only. `cdk deploy --all` deploys the companion first.
 */
export function addMandjeStacks(
  app: App,
  props: MandjeStacksProps,
): { mandje: MandjeStack; edge?: MandjeEdgeStack } {
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
  return edge ? { mandje, edge } : { mandje };
}
