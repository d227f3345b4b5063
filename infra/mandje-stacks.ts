import type { App } from 'aws-cdk-lib';
import { EDGE_REGION, MandjeEdgeStack } from './edge-stack';
import { MandjeStack, type MandjeStackProps } from './mandje-stack';

export interface MandjeStacksProps extends Omit<MandjeStackProps, 'clientRateLimit'> {
  /** The per-client limit at the edge: AWS WAF in a companion stack in us-east-1 (`-c waf=false`: none). */
  waf: boolean;
  /** The Mandje stack's account and region; the region must be known, for the edge stack's reference. */
  env: { account?: string; region: string };
}

export interface MandjeStacks {
  mandje: MandjeStack;
  edge?: MandjeEdgeStack;
}

/**
 * The stacks of one deployment, in the order `cdk deploy --all` deploys them: with WAF, MandjeEdge in
 * us-east-1, which holds the web ACL CloudFront takes from there only; and Mandje.
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
  return { mandje, ...(edge ? { edge } : {}) };
}
