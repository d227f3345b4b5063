import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { startFauxqs } from 'fauxqs';
import { ACCOUNT } from './deployed-stack';
import type { RoleChecker } from './role-check';

/**
 * The AWS services the production path calls, behind one endpoint: DynamoDB with Streams (DynamoDB Local, in
 * memory, for one test file), SQS (fauxqs, real receive counts and visibility timeouts), and SES v2's SendEmail
 * and GetAccount, answered here with SES's error shapes for a scenario's fault and throttled above MaxSendRate.
 * Each function signs with its logical id as its access key: each call is checked against its role and
 * refused with AccessDeniedException, as AWS would, when the role does not allow it.
 */

export type SesFault =
  | { kind: 'throttle'; times: number }
  | { kind: 'daily-quota' | 'not-verified' | 'access-denied' };
type SentMail = { from: string; to: string[]; raw: string; configurationSet?: string };

const DYNAMODB_LOCAL = resolve(import.meta.dirname, '../../node_modules/amplify-dynamodb-simulator/emulator');

type Forwarded = { method?: string; path?: string; headers: Record<string, string | string[] | undefined> };

function forward(port: number, { method, path, headers }: Forwarded, body: Buffer) {
  return new Promise<{ status: number; headers: Forwarded['headers']; body: Buffer }>((done, fail) => {
    const outgoing = request(
      { host: '127.0.0.1', port, method, path, headers: { ...headers, host: `127.0.0.1:${port}` } },
      async (answer) =>
        done({
          status: answer.statusCode ?? 500,
          headers: answer.headers,
          body: Buffer.concat(await answer.toArray()),
        }),
    );
    outgoing.on('error', fail);
    outgoing.end(body);
  });
}

async function startDynamoDbLocal() {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((listening) => probe.once('listening', listening));
  const { port } = probe.address() as { port: number };
  await new Promise((closed) => probe.close(closed));
  const jar = [
    '-jar',
    join(DYNAMODB_LOCAL, 'DynamoDBLocal.jar'),
    '-inMemory',
    '-sharedDb',
    '-port',
    String(port),
  ];
  // Its metadata file goes to its working folder: a temporary one, not the project.
  const child = spawn('java', [`-Djava.library.path=${join(DYNAMODB_LOCAL, 'DynamoDBLocal_lib')}`, ...jar], {
    stdio: 'ignore',
    cwd: mkdtempSync(join(tmpdir(), 'mandje-dynamodb-local-')),
  });
  for (let tries = 0; tries < 450; tries++) {
    const headers = {
      'x-amz-target': 'DynamoDB_20120810.ListTables',
      'content-type': 'application/x-amz-json-1.0',
    };
    const answer = await forward(port, { method: 'POST', path: '/', headers }, Buffer.from('{}')).catch(
      () => undefined,
    );
    if (answer?.status === 200 || answer?.status === 400) return { port, process: child };
    if (child.exitCode !== null)
      throw new Error(`DynamoDB Local exited with ${child.exitCode}: is Java installed?`);
    await delay(200);
  }
  child.kill();
  throw new Error('DynamoDB Local did not start in 90 s');
}

/** The IAM action (one or more) and resources of one call, read from the request as AWS reads it. */
function iamCallsOf(
  region: string,
  target: string,
  path: string,
  method: string,
  body: Record<string, unknown>,
) {
  const arn = (service: string, resource: string) => `arn:aws:${service}:${region}:${ACCOUNT}:${resource}`;
  const action = target.slice(target.indexOf('.') + 1);
  if (target.startsWith('DynamoDB_20120810.')) {
    const tables = body.RequestItems ? Object.keys(body.RequestItems) : [String(body.TableName)];
    const index = body.IndexName ? `/index/${body.IndexName}` : '';
    return tables.map((table) => ({
      action: `dynamodb:${action}`,
      resource: arn('dynamodb', `table/${table}${index}`),
    }));
  }
  if (target.startsWith('AmazonSQS.')) {
    const name = String(body.QueueUrl ?? body.QueueName ?? '')
      .split('/')
      .pop();
    return [{ action: `sqs:${action.replace(/Batch$/, '')}`, resource: arn('sqs', String(name)) }];
  }
  if (path === '/v2/email/account' && method === 'GET') return [{ action: 'ses:GetAccount', resource: '*' }];
  if (path === '/v2/email/outbound-emails' && method === 'POST') {
    const from = String(body.FromEmailAddress ?? '');
    const resources = [arn('ses', `identity/${from.slice(from.lastIndexOf('@') + 1).replace(/>.*$/, '')}`)];
    if (body.ConfigurationSetName)
      resources.push(arn('ses', `configuration-set/${body.ConfigurationSetName}`));
    const raw = Boolean((body.Content as { Raw?: unknown })?.Raw);
    return resources.flatMap((resource) => [
      { action: 'ses:SendEmail', resource },
      ...(raw ? [{ action: 'ses:SendRawEmail', resource }] : []),
    ]);
  }
  return [{ action: `unknown:${method} ${path} ${target}`, resource: '*' }];
}

const SES_ERRORS: Record<SesFault['kind'], [status: number, type: string, message: string]> = {
  throttle: [429, 'TooManyRequestsException', 'Maximum sending rate exceeded.'],
  'daily-quota': [400, 'LimitExceededException', 'Daily message quota exceeded.'],
  'not-verified': [
    400,
    'MessageRejected',
    'Email address is not verified. The following identities failed the check in region: hallo@mandje.nl',
  ],
  'access-denied': [403, 'AccessDeniedException', 'not authorized to perform ses:SendEmail'],
};

export async function startAwsEmulators(region: string, roles: RoleChecker) {
  const dynamodb = await startDynamoDbLocal();
  const sqs = await startFauxqs({ port: 0, logger: false, defaultRegion: region });
  /** Every call a function made, and what IAM decided. */
  const calls: { principal: string; action: string; resource: string; decision: string }[] = [];
  const ses = {
    sent: [] as SentMail[],
    fault: undefined as SesFault | undefined,
    /** The account's quota; above MaxSendRate mails in any second, a send is throttled, as SES does. */
    quota: { Max24HourSend: 50_000, MaxSendRate: 50 },
    /** Sends refused for the rate. */
    throttled: 0,
    /** Told of each mail SES accepted, with SES's Message-ID for it. */
    onSent: undefined as ((mail: SentMail & { messageId: string }) => void) | undefined,
  };
  /** When the mails of the last second were accepted, oldest first. */
  const lastSecond: number[] = [];

  /** SES's answer: its status, error type (on a refusal) and body. */
  function answerSes(path: string, method: string, body: Record<string, unknown>): [number, string, object] {
    if (path === '/v2/email/account' && method === 'GET') {
      const SendQuota = { ...ses.quota, SentLast24Hours: ses.sent.length };
      return [200, '', { ProductionAccessEnabled: true, SendingEnabled: true, SendQuota }];
    }
    const refuse = (kind: SesFault['kind']): [number, string, object] => {
      const [status, type, message] = SES_ERRORS[kind];
      return [status, type, { message }];
    };
    const { fault } = ses;
    if (fault) {
      if (fault.kind === 'throttle' && --fault.times <= 0) ses.fault = undefined;
      return refuse(fault.kind);
    }
    if (ses.sent.length >= ses.quota.Max24HourSend) return refuse('daily-quota');
    const now = Date.now();
    while ((lastSecond[0] ?? now) <= now - 1_000) lastSecond.shift();
    if (lastSecond.length >= ses.quota.MaxSendRate) {
      ses.throttled++;
      return refuse('throttle');
    }
    lastSecond.push(now);
    const mail: SentMail = {
      from: String(body.FromEmailAddress),
      to: (body.Destination as { ToAddresses: string[] }).ToAddresses,
      raw: Buffer.from((body.Content as { Raw: { Data: string } }).Raw.Data, 'base64').toString('utf8'),
      ...(body.ConfigurationSetName ? { configurationSet: String(body.ConfigurationSetName) } : {}),
    };
    const messageId = randomUUID();
    ses.sent.push(mail);
    ses.onSent?.({ ...mail, messageId });
    return [200, '', { MessageId: messageId }];
  }

  const server = createServer(async (incoming, answer) => {
    const body = Buffer.concat(await incoming.toArray());
    const path = (incoming.url ?? '/').split('?')[0] ?? '/';
    const method = incoming.method ?? 'GET';
    const target = String(incoming.headers['x-amz-target'] ?? '');
    const caller =
      /Credential=([^/]+)\//.exec(String(incoming.headers.authorization ?? ''))?.[1] ?? 'anonymous';
    const json = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {};
    const reply = (status: number, type: string, answerBody: object) => {
      answer.writeHead(status, {
        'content-type': 'application/json',
        ...(type && { 'x-amzn-errortype': type }),
      });
      answer.end(JSON.stringify(answerBody));
    };
    try {
      // The test harness itself (the event source mappings, the scenarios' own reads) is not checked.
      for (const call of caller === 'harness' ? [] : iamCallsOf(region, target, path, method, json)) {
        const decision = await roles.decide({ principal: caller, ...call });
        calls.push({ principal: caller, ...call, decision });
        if (decision !== 'Allowed') {
          const message = `${caller} is not authorized to perform ${call.action} on ${call.resource}`;
          return reply(403, 'AccessDeniedException', { __type: 'AccessDeniedException', message });
        }
      }
      if (path.startsWith('/v2/email/')) return reply(...answerSes(path, method, json));
      const port = target.startsWith('AmazonSQS.') ? sqs.port : dynamodb.port;
      const forwarded = await forward(port, incoming, body);
      answer.writeHead(forwarded.status, forwarded.headers);
      answer.end(forwarded.body);
    } catch (error) {
      reply(500, 'InternalFailure', { __type: 'InternalFailure', message: String(error) });
    }
  });
  // Idle connections kept longer than the SDK keeps them, as AWS's endpoints do: a request never meets a
  // socket the server is closing.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));

  return {
    endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    calls,
    ses,
    async stop() {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      await sqs.stop();
      dynamodb.process.kill();
    },
  };
}
