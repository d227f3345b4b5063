import { runSimulation } from '@cloud-copilot/iam-simulate';
import { ACCOUNT, type DeployedStack, type PolicyDocument } from './deployed-stack';

/**
 * Whether AWS would allow a call, decided by an IAM policy simulator (@cloud-copilot/iam-simulate, AGPL-3.0,
 * run here as an unmodified test tool and never shipped) from the policies in the synthesized template:
 * a function's role for what the function calls, and the resource's own policy (a queue's, a topic's)
 * where it has one. Every call of every function in the production-path run goes through `allows`, so a
 * permission the role lacks fails the run as AWS would fail it; nothing here lists what a function calls.
 */

export interface Call {
  /** The function's logical id (its role), or a service principal such as cloudwatch.amazonaws.com. */
  principal: string;
  action: string;
  resource: string;
  context?: Record<string, string>;
}

export type Decision = 'Allowed' | 'ExplicitlyDenied' | 'ImplicitlyDenied' | 'Invalid';

export function roleChecker(stack: DeployedStack) {
  const resources = stack.template.Resources;
  /** Resource policies by the ARN of the resource they cover (queues and topics). */
  const resourcePolicies = new Map<string, PolicyDocument>();
  for (const resource of Object.values(resources)) {
    const properties = resource.Properties ?? {};
    if (resource.Type === 'AWS::SQS::QueuePolicy' || resource.Type === 'AWS::SNS::TopicPolicy') {
      const targets = (properties.Queues ?? properties.Topics) as unknown[];
      for (const target of targets) {
        const id = (target as { Ref: string }).Ref;
        const arn =
          resource.Type === 'AWS::SQS::QueuePolicy'
            ? `arn:aws:sqs:${stack.region}:${ACCOUNT}:${id}`
            : `arn:aws:sns:${stack.region}:${ACCOUNT}:${id}`;
        resourcePolicies.set(arn, stack.resolve(properties.PolicyDocument) as PolicyDocument);
      }
    }
  }
  const functionRole = new Map([...stack.functions.values()].map((fn) => [fn.id, fn.roleId]));
  const cache = new Map<string, Promise<Decision>>();

  async function decide(call: Call): Promise<Decision> {
    const roleId = functionRole.get(call.principal);
    const service = call.principal.endsWith('.amazonaws.com');
    if (!roleId && !service)
      throw new Error(`${call.principal} is neither a function of the stack nor a service`);
    const resourcePolicy = resourcePolicies.get(call.resource);
    const result = await runSimulation(
      {
        identityPolicies: roleId
          ? (stack.rolePolicies.get(roleId) ?? []).map((policy, index) => ({ name: `p${index}`, policy }))
          : [],
        serviceControlPolicies: [],
        resourceControlPolicies: [],
        ...(resourcePolicy ? { resourcePolicy } : {}),
        request: {
          principal: roleId ? `arn:aws:iam::${ACCOUNT}:role/${roleId}` : call.principal,
          action: call.action,
          resource: { resource: call.resource, accountId: ACCOUNT },
          contextVariables: { 'aws:SecureTransport': 'true', ...call.context },
        },
      } as Parameters<typeof runSimulation>[0],
      {},
    );
    if (result.resultType === 'error') return 'Invalid';
    return result.overallResult as Decision;
  }

  return {
    /** AWS's answer to `call`, cached per principal, action and resource. */
    decide(call: Call): Promise<Decision> {
      const key = JSON.stringify(call);
      let decision = cache.get(key);
      if (!decision) {
        decision = decide(call);
        cache.set(key, decision);
      }
      return decision;
    },
  };
}

export type RoleChecker = ReturnType<typeof roleChecker>;
