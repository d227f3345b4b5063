import { type CfnResource, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';

export type Resource = {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
};

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

/** The logical ID of a construct's CloudFormation resource, as the template names it. */
export const logicalIdOf = (construct: IConstruct): string =>
  Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnResource);

/** A handle the stack has in this mode, or a failed test saying which is missing. */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the stack has no ${what}`);
  return value;
}

/** Every statement of every policy attached to the role. */
export function statementsOf(template: Template, roleLogicalId: string): Statement[] {
  return (Object.values(template.findResources('AWS::IAM::Policy')) as Resource[])
    .filter((policy) =>
      (policy.Properties.Roles as unknown[]).some(
        (role) => JSON.stringify(role) === JSON.stringify({ Ref: roleLogicalId }),
      ),
    )
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

/** The resource with this logical ID. */
export const resourceOf = (template: Template, logicalId: string): Resource =>
  (template.toJSON().Resources as Record<string, Resource>)[logicalId] as Resource;

/** The DistributionConfig of the template's one CloudFront distribution. */
export function distributionConfigOf(template: Template): Record<string, unknown> {
  const [distribution, ...others] = Object.values(
    template.findResources('AWS::CloudFront::Distribution'),
  ) as Resource[];
  if (!distribution || others.length > 0) throw new Error('the template has not exactly one distribution');
  return distribution.Properties.DistributionConfig as Record<string, unknown>;
}
