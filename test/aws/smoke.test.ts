import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '#contract/abuse-limits';
import { createLambdaHttpAdapter } from '../../local/lambda-http-adapter';
import { createStaticSite } from '../../local/static-site';
import { runSmoke } from '../../operator/smoke';
import { throughCloudFront } from './cloudfront';
import { ORIGIN_SECRET } from './deployed-stack';
import { type ProductionPath, startProductionPath } from './production-path';

let path: ProductionPath;
beforeAll(async () => {
  path = await startProductionPath();
});
afterAll(async () => {
  await path?.stop();
});

type HeadersPolicy = {
  SecurityHeadersConfig?: Record<string, Record<string, string | number | boolean> | undefined>;
  CustomHeadersConfig?: { Items?: { Header: string; Value: string }[] };
};

/** The page's headers as the template's response headers policy makes CloudFront send them. */
function policyHeaders(): Record<string, string> {
  const [policy] = Object.values(path.stack.template.Resources).filter(
    ({ Type }) => Type === 'AWS::CloudFront::ResponseHeadersPolicy',
  );
  const { SecurityHeadersConfig: security, CustomHeadersConfig: custom } = (policy?.Properties
    ?.ResponseHeadersPolicyConfig ?? {}) as HeadersPolicy;
  const { AccessControlMaxAgeSec, IncludeSubdomains, Preload } = security?.StrictTransportSecurity ?? {};
  return {
    'content-security-policy': String(security?.ContentSecurityPolicy?.ContentSecurityPolicy),
    'strict-transport-security': `max-age=${AccessControlMaxAgeSec}${IncludeSubdomains ? '; includeSubDomains' : ''}${Preload ? '; preload' : ''}`,
    ...(security?.ContentTypeOptions ? { 'x-content-type-options': 'nosniff' } : {}),
    'x-frame-options': String(security?.FrameOptions?.FrameOption),
    'referrer-policy': String(security?.ReferrerPolicy?.ReferrerPolicy),
    ...Object.fromEntries((custom?.Items ?? []).map(({ Header, Value }) => [Header, Value])),
  };
}

/**
 * CloudFront over HTTP on this machine: the built pages with the template's headers policy, and /api/* as the
 * template's origin request policy forwards it to the function its route names, with `secret` as the origin
 * secret CloudFront adds. The site's origin stands for this address.
 */
async function startEdge(secret: string) {
  const pages = createStaticSite(resolve(import.meta.dirname, '../../dist'));
  const headers = policyHeaders();
  const [siteOrigin = ''] = [...path.stack.functions.values()]
    .flatMap(({ environment }) => environment.SITE_ORIGINS?.split(',') ?? [])
    .filter(Boolean);
  let edgeOrigin = '';
  const api = createLambdaHttpAdapter(async (event) => {
    const { origin } = event.headers;
    const viewer = {
      ...event.headers,
      ...(origin === edgeOrigin ? { origin: siteOrigin } : {}),
      'cloudfront-viewer-address': `${event.requestContext.http.sourceIp}:50123`,
    };
    const { originDomain, headers } = throughCloudFront(
      path.stack,
      event.rawPath,
      viewer as Record<string, string>,
    );
    // API Gateway serves its own domain: another Host is refused before any route.
    if (headers.host !== originDomain) return { statusCode: 403, body: '{"message":"Forbidden"}' };
    event.headers = { ...headers, [ORIGIN_VERIFY_HEADER]: secret };
    return path.route(event);
  });
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/api/')) return void api(request, response);
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    void pages.serve(request, response);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  edgeOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: new URL(`${edgeOrigin}/`), close: () => new Promise((closed) => server.close(closed)) };
}

async function smoke(secret: string) {
  const edge = await startEdge(secret);
  const lines: string[] = [];
  try {
    const table = { client: path.db, tableName: path.tableName, where: 'emulated', close: async () => {} };
    const code = await runSmoke({ site: edge.url, table, out: (line) => lines.push(line) });
    return { code, lines };
  } finally {
    await edge.close();
  }
}

describe('waitlist smoke on the production path', () => {
  it('passes every check through the emulated CloudFront, API and functions, and leaves nothing', async () => {
    const { code, lines } = await smoke(ORIGIN_SECRET);

    expect(lines.filter((line) => !line.startsWith('ok '))).toEqual(['All 9 checks passed.']);
    expect(code).toBe(0);
    expect(await path.db.send(new ScanCommand({ TableName: path.tableName }))).toMatchObject({ Count: 0 });
    expect(path.aws.calls.filter((call) => call.decision !== 'Allowed')).toEqual([]);
  });

  it('fails when CloudFront’s origin secret is not the API’s: every post is refused', async () => {
    const { code, lines } = await smoke('another-secret');

    expect(lines).toContainEqual(expect.stringMatching(/^FAIL {2}signup: answered 403/));
    expect(code).toBe(1);
  });
});
