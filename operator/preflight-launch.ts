/**
 * What the preflight's checks read (`npm run waitlist -- preflight`): the deployed stack, found by its name
 * as CloudFormation keeps it, the clients of the services the checks ask, this machine's DNS resolver and
 * fetch, and the reads several checks share, each made once. Everything is passed in, so a test gives mocks.
 */
import {
  type CloudFormationClient,
  DescribeStacksCommand,
  paginateListStackResources,
} from '@aws-sdk/client-cloudformation';
import { type CloudFrontClient, type Distribution, GetDistributionCommand } from '@aws-sdk/client-cloudfront';
import type { LambdaClient } from '@aws-sdk/client-lambda';
import {
  GetAccountCommand,
  type GetAccountCommandOutput,
  GetEmailIdentityCommand,
  type GetEmailIdentityCommandOutput,
  type SESv2Client,
} from '@aws-sdk/client-sesv2';
import type { SNSClient } from '@aws-sdk/client-sns';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SiteEnvironment } from '#contract/site-config';
import { countByStatus } from './waitlist-store-access';

/**
 * The stack `npm run deploy` creates, and the outputs the checks read (infra/mandje-stacks.ts and
 * infra/mandje-stack.ts name them; the operator's tool may not import infra/).
 */
export const STACK_NAME = 'Mandje';
type StackOutput = 'SiteUrl' | 'TableName' | 'AlarmTopicArn';

export type Status = 'ok' | 'warn' | 'fail';

/** What a check found, and for a warning or a failure what to do about it. */
export interface Finding {
  status: Status;
  says: string;
  todo?: string;
}

export const ok = (says: string): Finding => ({ status: 'ok', says });
export const warn = (says: string, todo: string): Finding => ({ status: 'warn', says, todo });
export const fail = (says: string, todo: string): Finding => ({ status: 'fail', says, todo });

export interface DeployedStack {
  name: string;
  region: string;
  status: string;
  outputs: Partial<Record<string, string>>;
  /** The physical ids of the stack's resources, by CloudFormation type (`AWS::SES::EmailIdentity`). */
  resources: Map<string, string[]>;
}

/** The subset of node:dns/promises' Resolver the checks use. */
export interface DnsResolver {
  resolveCname(name: string): Promise<string[]>;
  resolve4(name: string): Promise<string[]>;
  resolveMx(name: string): Promise<{ exchange: string; priority: number }[]>;
  resolveTxt(name: string): Promise<string[][]>;
}

export interface PreflightClients {
  cloudFormation: CloudFormationClient;
  ses: SESv2Client;
  sns: SNSClient;
  lambda: LambdaClient;
  cloudFront: CloudFrontClient;
  /** For the waitlist table, whose name is the stack's TableName output. */
  dynamo: DynamoDBDocumentClient;
}

export interface PreflightDeps {
  region: string;
  clients: PreflightClients;
  resolver: DnsResolver;
  fetch: typeof fetch;
  /** The site's facts as this machine has them (MANDJE_*, #contract/site-config). */
  siteEnv: SiteEnvironment;
}

/** An answer of the deployed site. */
export interface SiteAnswer {
  status: number;
  /** Whether CloudFront served it (its request id header, or its Via). */
  viaCloudFront: boolean;
  body: string;
}

/** The sending domain's identity in SES, with the domain it is for. */
export type SenderIdentity = GetEmailIdentityCommandOutput & { domain: string };

export interface Launch extends PreflightDeps {
  stack: DeployedStack;
  sesAccount(): Promise<GetAccountCommandOutput>;
  identity(): Promise<SenderIdentity>;
  distribution(): Promise<Distribution>;
  /** `method path` on the site's address (the SiteUrl output), redirects not followed. */
  site(method: 'GET' | 'OPTIONS', path: string): Promise<SiteAnswer>;
  /** How many people are confirmed: the same Scan as `count`. */
  confirmedCount(): Promise<number>;
}

/** Something this version of the stack has and the deployed one lacks: deploying again fixes it. */
export class NotInStack extends Error {
  override name = 'NotInStack';
}

export const IDENTITY_TYPE = 'AWS::SES::EmailIdentity';

/** The physical ids of the stack's resources of `type`. */
export const resourcesOf = (stack: DeployedStack, type: string) => stack.resources.get(type) ?? [];

/** One check: a small function of the launch, and what it needs to be allowed to read. */
export interface Check {
  /** What is checked: the start of its line. */
  name: string;
  /** The IAM actions it reads with (docs/operating.md lists them all). */
  needs: string[];
  run(launch: Launch): Promise<Finding>;
}

/**
 * How much a MAIL FROM domain that does not work matters: the stack lets SES fall back to its own (DMARC
 * still passes on the aligned DKIM signature, SPF does not align), unless the identity says to reject.
 */
export const mailFromFinding = (identity: SenderIdentity) =>
  identity.MailFromAttributes?.BehaviorOnMxFailure === 'REJECT_MESSAGE' ? fail : warn;

export const mailFromOf = (identity: SenderIdentity) => identity.MailFromAttributes?.MailFromDomain ?? '';

/** The physical id of the stack's one resource of `type`. */
export function resourceOf(stack: DeployedStack, type: string): string {
  const [id] = resourcesOf(stack, type);
  if (id === undefined) throw new NotInStack(`the stack has no ${type}`);
  return id;
}

export function outputOf(stack: DeployedStack, name: StackOutput): string {
  const value = stack.outputs[name];
  if (value === undefined) throw new NotInStack(`the stack has no ${name} output`);
  return value;
}

/** The stack's status, outputs and resources, as CloudFormation has them. */
export async function findStack(client: CloudFormationClient, region: string): Promise<DeployedStack> {
  const { Stacks: [stack] = [] } = await client.send(new DescribeStacksCommand({ StackName: STACK_NAME }));
  const resources = new Map<string, string[]>();
  for await (const page of paginateListStackResources({ client }, { StackName: STACK_NAME }))
    for (const { ResourceType, PhysicalResourceId } of page.StackResourceSummaries ?? [])
      if (ResourceType && PhysicalResourceId)
        resources.set(ResourceType, [...(resources.get(ResourceType) ?? []), PhysicalResourceId]);
  return {
    name: STACK_NAME,
    region,
    status: stack?.StackStatus ?? 'unknown',
    outputs: Object.fromEntries(
      (stack?.Outputs ?? []).map(({ OutputKey, OutputValue }) => [OutputKey, OutputValue]),
    ),
    resources,
  };
}

/** `read`, made once however many checks ask. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let answer: Promise<T> | undefined;
  return () => {
    answer ??= read();
    return answer;
  };
}

const SITE_TIMEOUT_MS = 15_000;

/** What the checks read of this stack: the deps, and the reads several checks share, each made once. */
export function launchOf(stack: DeployedStack, deps: PreflightDeps): Launch {
  const { ses, cloudFront, dynamo } = deps.clients;
  const answers = new Map<string, Promise<SiteAnswer>>();
  const fetchSite = async (method: string, path: string): Promise<SiteAnswer> => {
    const response = await deps.fetch(new URL(path, outputOf(stack, 'SiteUrl')), {
      method,
      redirect: 'manual',
      signal: AbortSignal.timeout(SITE_TIMEOUT_MS),
    });
    return {
      status: response.status,
      viaCloudFront:
        response.headers.has('x-amz-cf-id') || /cloudfront/i.test(response.headers.get('via') ?? ''),
      body: await response.text(),
    };
  };
  return {
    ...deps,
    stack,
    sesAccount: once(() => ses.send(new GetAccountCommand({}))),
    identity: once(async () => {
      const domain = resourceOf(stack, IDENTITY_TYPE);
      return { domain, ...(await ses.send(new GetEmailIdentityCommand({ EmailIdentity: domain }))) };
    }),
    distribution: once(async () => {
      const Id = resourceOf(stack, 'AWS::CloudFront::Distribution');
      const { Distribution: distribution } = await cloudFront.send(new GetDistributionCommand({ Id }));
      if (!distribution) throw new NotInStack(`CloudFront has no distribution ${Id}`);
      return distribution;
    }),
    site(method, path) {
      const key = `${method} ${path}`;
      const answer = answers.get(key) ?? fetchSite(method, path);
      answers.set(key, answer);
      return answer;
    },
    confirmedCount: once(async () => {
      const tableName = outputOf(stack, 'TableName');
      const counts = await countByStatus({
        client: dynamo,
        tableName,
        where: stack.region,
        close: async () => {},
      });
      return counts.confirmed ?? 0;
    }),
  };
}
