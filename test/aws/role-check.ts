import { runSimulation } from '@cloud-copilot/iam-simulate';
import { ACCOUNT, type DeployedStack, type PolicyDocument } from './deployed-stack';

/**
 * Whether AWS would allow a call, decided by an IAM policy simulator (@cloud-copilot/iam-simulate, AGPL-3.0,
 * run here as an unmodified test tool and never shipped) from the policies in the synthesized template:
 * a function's role for what the function calls, and the resource's own policy (a queue's, a topic's)
 * where it has one. Every call of every function in the production-path run goes through `decide`, so a
 * permission the role lacks fails the run as AWS would fail it; nothing here lists what a function calls.
 */

export type Call = {
  /** The function's logical id (its role), or a service principal such as cloudwatch.amazonaws.com. */
  principal: string;
  action: string;
  resource: string;
  context?: Record<string, string>;
};
export type RoleChecker = ReturnType<typeof roleChecker>;

export function roleChecker(stack: DeployedStack) {
  /** Resource policies by the ARN of the resource they cover (queues and topics). */
  const resourcePolicies = new Map<string, PolicyDocument>();
  for (const { Type, Properties = {} } of Object.values(stack.template.Resources))
    if (Type === 'AWS::SQS::QueuePolicy' || Type === 'AWS::SNS::TopicPolicy')
      for (const target of (Properties.Queues ?? Properties.Topics) as { Ref: string }[]) {
        const service = Type === 'AWS::SQS::QueuePolicy' ? 'sqs' : 'sns';
        const arn = `arn:aws:${service}:${stack.region}:${ACCOUNT}:${target.Ref}`;
        resourcePolicies.set(arn, stack.resolve(Properties.PolicyDocument) as PolicyDocument);
      }
  const cache = new Map<string, Promise<string>>();

  async function decide({ principal, action, resource, context }: Call): Promise<string> {
    const roleId = stack.functions.get(principal)?.roleId;
    if (!roleId && !principal.endsWith('.amazonaws.com'))
      throw new Error(`${principal} is neither a function of the stack nor a service`);
    const resourcePolicy = resourcePolicies.get(resource);
    const policies = roleId ? (stack.rolePolicies.get(roleId) ?? []) : [];
    const result = await runSimulation(
      {
        identityPolicies: policies.map((policy, index) => ({ name: `p${index}`, policy })),
        serviceControlPolicies: [],
        resourceControlPolicies: [],
        ...(resourcePolicy ? { resourcePolicy } : {}),
        request: {
          principal: roleId ? `arn:aws:iam::${ACCOUNT}:role/${roleId}` : principal,
          action,
          resource: { resource, accountId: ACCOUNT },
          contextVariables: { 'aws:SecureTransport': 'true', ...context },
        },
      } as Parameters<typeof runSimulation>[0],
      {},
    );
    return result.resultType === 'error' ? 'Invalid' : String(result.overallResult);
  }

  return {
    /** AWS's answer to `call` ('Allowed', 'ExplicitlyDenied', 'ImplicitlyDenied', 'Invalid'), cached. */
    decide(call: Call): Promise<string> {
      const key = JSON.stringify(call);
      if (!cache.has(key)) cache.set(key, decide(call));
      return cache.get(key) as Promise<string>;
    },
  };
}
