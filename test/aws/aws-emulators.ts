import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { startFauxqs } from 'fauxqs';
import { ACCOUNT } from './deployed-stack';
import type { Call, RoleChecker } from './role-check';

/**
 * The AWS services the production path calls, behind one endpoint: DynamoDB with Streams (DynamoDB Local, in
 * memory, for one test file), SQS (fauxqs, real receive counts and visibility timeouts), and SES v2's SendEmail
 * and GetAccount, answered here with SES's error shapes for a scenario's fault and throttled above MaxSendRate.
 * Each function signs with its logical id as its access key: each call is checked against its role and
 * refused with AccessDeniedException, as AWS would, when the role does not allow it.
 */

export type SesFault =
  | { kind: 'throttle'; times: number }
  | { kind: 'daily-quota' }
  | { kind: 'not-verified' }
  | { kind: 'access-denied' };

export interface SentMail {
  from: string;
  to: string[];
  raw: string;
  configurationSet?: string;
  /** When SES accepted it (Date.now()). */
  at: number;
}

export interface AwsEmulators {
  endpoint: string;
  /** Every call a function made, and what IAM decided. */
  calls: (Call & { decision: string })[];
  ses: {
    sent: SentMail[];
    fault: SesFault | undefined;
    /** The account's quota; above MaxSendRate mails in any second, a send is throttled, as SES does. */
    quota: { Max24HourSend: number; MaxSendRate: number };
    /** Sends refused for the rate. */
    throttled: number;
    /** Told of each mail SES accepted, with SES's Message-ID for it. */
    onSent?: (mail: SentMail & { messageId: string }) => void;
  };
  stop(): Promise<void>;
}

const DYNAMODB_LOCAL = resolve(import.meta.dirname, '../../node_modules/amplify-dynamodb-simulator/emulator');

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

async function startDynamoDbLocal(): Promise<{ port: number; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(DYNAMODB_LOCAL, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(DYNAMODB_LOCAL, 'DynamoDBLocal.jar'),
      '-inMemory',
      '-sharedDb',
      '-port',
      String(port),
    ],
    // Its metadata file goes to its working folder: a temporary one, not the project.
    { stdio: 'ignore', cwd: mkdtempSync(join(tmpdir(), 'mandje-dynamodb-local-')) },
  );
  for (let tries = 0; tries < 450; tries++) {
    const up = await forward(port, {
      method: 'POST',
      path: '/',
      headers: {
        'x-amz-target': 'DynamoDB_20120810.ListTables',
        'content-type': 'application/x-amz-json-1.0',
      },
      body: Buffer.from('{}'),
    }).then(
      (answer) => answer.status === 200 || answer.status === 400,
      () => false,
    );
    if (up) return { port, process: child };
    if (child.exitCode !== null)
      throw new Error(`DynamoDB Local exited with ${child.exitCode}: is Java installed?`);
    await delay(200);
  }
  child.kill();
  throw new Error('DynamoDB Local did not start in 90 s');
}

interface Forwarded {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function forward(port: number, { method, path, headers, body }: Forwarded) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((done, fail) => {
    const outgoing = request(
      { host: '127.0.0.1', port, method, path, headers: { ...headers, host: `127.0.0.1:${port}` } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          done({ status: answer.statusCode ?? 500, headers: answer.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    outgoing.on('error', fail);
    outgoing.end(body);
  });
}

const readBody = (incoming: IncomingMessage) =>
  new Promise<Buffer>((done, fail) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => done(Buffer.concat(chunks)));
    incoming.on('error', fail);
  });

/** The IAM action (one or more) and resources of one call, read from the request as AWS reads it. */
function iamCallsOf(
  region: string,
  target: string,
  path: string,
  method: string,
  body: Record<string, unknown>,
) {
  const arn = (service: string, resource: string) => `arn:aws:${service}:${region}:${ACCOUNT}:${resource}`;
  if (target.startsWith('DynamoDB_20120810.')) {
    const action = target.slice(target.indexOf('.') + 1);
    const tables = body.RequestItems ? Object.keys(body.RequestItems) : [String(body.TableName)];
    return tables.map((table) => ({
      action: `dynamodb:${action}`,
      resource: arn('dynamodb', `table/${table}${body.IndexName ? `/index/${body.IndexName}` : ''}`),
    }));
  }
  if (target.startsWith('AmazonSQS.')) {
    const action = target.slice(target.indexOf('.') + 1).replace(/Batch$/, '');
    const name = String(body.QueueUrl ?? body.QueueName ?? '')
      .split('/')
      .pop();
    return [{ action: `sqs:${action}`, resource: arn('sqs', String(name)) }];
  }
  if (path === '/v2/email/account' && method === 'GET') return [{ action: 'ses:GetAccount', resource: '*' }];
  if (path === '/v2/email/outbound-emails' && method === 'POST') {
    const from = String(body.FromEmailAddress ?? '');
    const domain = from.slice(from.lastIndexOf('@') + 1).replace(/>.*$/, '');
    const resources = [arn('ses', `identity/${domain}`)];
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

const SES_ERRORS: Record<SesFault['kind'], { status: number; type: string; message: string }> = {
  throttle: { status: 429, type: 'TooManyRequestsException', message: 'Maximum sending rate exceeded.' },
  'daily-quota': { status: 400, type: 'LimitExceededException', message: 'Daily message quota exceeded.' },
  'not-verified': {
    status: 400,
    type: 'MessageRejected',
    message:
      'Email address is not verified. The following identities failed the check in region: hallo@mandje.nl',
  },
  'access-denied': {
    status: 403,
    type: 'AccessDeniedException',
    message: 'not authorized to perform ses:SendEmail',
  },
};

export async function startAwsEmulators(region: string, roles: RoleChecker): Promise<AwsEmulators> {
  const dynamodb = await startDynamoDbLocal();
  const sqs = await startFauxqs({ port: 0, logger: false, defaultRegion: region });
  const calls: AwsEmulators['calls'] = [];
  const ses: AwsEmulators['ses'] = {
    sent: [],
    fault: undefined,
    quota: { Max24HourSend: 50_000, MaxSendRate: 50 },
    throttled: 0,
  };
  /** When the mails of the last second were accepted, oldest first. */
  const lastSecond: number[] = [];

  function answerSes(path: string, method: string, body: Record<string, unknown>) {
    if (path === '/v2/email/account' && method === 'GET')
      return {
        status: 200,
        body: {
          ProductionAccessEnabled: true,
          SendingEnabled: true,
          SendQuota: { ...ses.quota, SentLast24Hours: ses.sent.length },
        },
      };
    const fault = ses.fault;
    if (fault) {
      if (fault.kind === 'throttle' && --fault.times <= 0) ses.fault = undefined;
      const error = SES_ERRORS[fault.kind];
      return { status: error.status, type: error.type, body: { message: error.message } };
    }
    if (ses.sent.length >= ses.quota.Max24HourSend) {
      const error = SES_ERRORS['daily-quota'];
      return { status: error.status, type: error.type, body: { message: error.message } };
    }
    const at = Date.now();
    while (lastSecond.length > 0 && (lastSecond[0] as number) <= at - 1_000) lastSecond.shift();
    if (lastSecond.length >= ses.quota.MaxSendRate) {
      ses.throttled++;
      const error = SES_ERRORS.throttle;
      return { status: error.status, type: error.type, body: { message: error.message } };
    }
    lastSecond.push(at);
    const content = body.Content as { Raw: { Data: string } };
    const mail: SentMail = {
      from: String(body.FromEmailAddress),
      to: (body.Destination as { ToAddresses: string[] }).ToAddresses,
      raw: Buffer.from(content.Raw.Data, 'base64').toString('utf8'),
      ...(body.ConfigurationSetName ? { configurationSet: String(body.ConfigurationSetName) } : {}),
      at,
    };
    const messageId = randomUUID();
    ses.sent.push(mail);
    ses.onSent?.({ ...mail, messageId });
    return { status: 200, body: { MessageId: messageId } };
  }

  const server: Server = createServer(async (incoming, answer) => {
    const body = await readBody(incoming);
    const path = (incoming.url ?? '/').split('?')[0] ?? '/';
    const method = incoming.method ?? 'GET';
    const target = String(incoming.headers['x-amz-target'] ?? '');
    const caller =
      /Credential=([^/]+)\//.exec(String(incoming.headers.authorization ?? ''))?.[1] ?? 'anonymous';
    const json = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {};
    const fail = (status: number, type: string, message: string) => {
      answer.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type });
      answer.end(JSON.stringify({ __type: type, message }));
    };
    try {
      // The test harness itself (the event source mappings, the scenarios' own reads) is not checked.
      if (caller !== 'harness') {
        for (const call of iamCallsOf(region, target, path, method, json)) {
          const decision = await roles.decide({ principal: caller, ...call });
          calls.push({ principal: caller, ...call, decision });
          if (decision !== 'Allowed')
            return fail(
              403,
              'AccessDeniedException',
              `${caller} is not authorized to perform ${call.action} on ${call.resource}`,
            );
        }
      }
      if (path.startsWith('/v2/email/')) {
        const { status, type, body: answerBody } = answerSes(path, method, json);
        answer.writeHead(status, {
          'content-type': 'application/json',
          ...(type ? { 'x-amzn-errortype': type } : {}),
        });
        return answer.end(JSON.stringify(answerBody));
      }
      const port = target.startsWith('AmazonSQS.') ? sqs.port : dynamodb.port;
      const forwarded = await forward(port, {
        method,
        path: incoming.url ?? '/',
        headers: incoming.headers,
        body,
      });
      answer.writeHead(forwarded.status, forwarded.headers);
      answer.end(forwarded.body);
    } catch (error) {
      fail(500, 'InternalFailure', String(error));
    }
  });
  // Idle connections kept longer than the SDK keeps them, as AWS's endpoints do: a request never meets a
  // socket the server is closing.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };

  return {
    endpoint: `http://127.0.0.1:${port}`,
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
