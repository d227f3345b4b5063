import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { VisitLogs } from './constructs/visit-logs';
import type { EDGE_REGION } from './edge-stack';

export interface MandjeEdgeLogsStackProps extends StackProps {
  env: { account?: string; region: typeof EDGE_REGION };
  /** The Mandje stack's distribution, read from that stack's output (a weak reference, across regions). */
  distributionArn: string;
}

/**
 * The distribution's access logs and the visits counted from them, in us-east-1: CloudWatch Logs takes a
 * CloudFront delivery source there only. Deployed after the Mandje stack, whose distribution it logs; a
 * stack of its own, as MandjeEdge is deployed before it (Mandje reads MandjeEdge's web ACL).
 */
export class MandjeEdgeLogsStack extends Stack {
  public readonly visitLogs: VisitLogs;

  constructor(scope: Construct, id: string, props: MandjeEdgeLogsStackProps) {
    super(scope, id, props);
    this.visitLogs = new VisitLogs(this, 'VisitLogs', { distributionArn: props.distributionArn });
  }
}
