// Served alike: one table of request paths and their answers, run against CloudFront (the synthesized stack's
// viewer functions, executed, in front of the bucket as the stack uploads it) and the local runner over HTTP.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_CONTROL } from '#contract/site-serving';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { synthStack } from '../infra/synth';
import { plainRequest } from './raw-http';

const ASSET = 'assets/index-Ab12Cd34.js';

/** A built site in the shape `npm run build` writes, each page saying which it is. */
const SITE_FILES: Record<string, string> = {
  'index.html': 'Home nl',
  'en/index.html': 'Home en',
  'privacy/index.html': 'Privacy nl',
  'en/privacy/index.html': 'Privacy en',
  'waitlist/joined/index.html': 'Joined nl',
  '404.html': 'Not found nl',
  'en/404.html': 'Not found en',
  'robots.txt': 'Robots',
  'favicon.svg': 'Icon',
  '.well-known/security.txt': 'Security contact',
  '.well-known/other.txt': 'Another well-known file',
  [ASSET]: 'Asset',
  '.vite/manifest.json': 'Build manifest',
  '.mandje/inline-style-hashes.json': '[]',
};

/** The status, which file's content was sent (its marker) or the redirect's target, and Cache-Control. */
type Answer = { status: number; body?: string; location?: string; cacheControl?: string };

const { revalidate, immutable } = CACHE_CONTROL;
const page = (body: string, cacheControl: string = revalidate): Answer => ({
  status: 200,
  body,
  cacheControl,
});
const moved = (location: string): Answer => ({ status: 301, location });
const missing = (body: 'Not found nl' | 'Not found en'): Answer => ({
  status: 404,
  body,
  cacheControl: revalidate,
});

/** The table: request path (with query) → what must be served, by both. */
const TABLE: [string, Answer][] = [
  ['/', page('Home nl')],
  ['/en', moved('/en/')],
  ['/en/', page('Home en')],
  ['/en/?utm_source=mail', page('Home en')],
  ['/index.html', moved('/')],
  ['/privacy', page('Privacy nl')],
  ['/privacy/', moved('/privacy')],
  ['/privacy/index.html', moved('/privacy')],
  ['/en/privacy', page('Privacy en')],
  ['/waitlist/joined', page('Joined nl')],
  ['/privac%79', moved('/privacy')],
  ['/%65n/', moved('/en/')],
  [`/${ASSET}`, page('Asset', immutable)],
  ['/assets/index-Missing0.js', missing('Not found nl')],
  ['/robots.txt', page('Robots')],
  ['/favicon.svg', page('Icon')],
  // The one file in a dot folder that is served (RFC 9116), and nothing else there.
  ['/.well-known/security.txt', page('Security contact')],
  ['/.well-known/other.txt', missing('Not found nl')],
  ['/.well-known/', missing('Not found nl')],
  ['/en/.well-known/security.txt', missing('Not found en')],
  ['/nope', missing('Not found nl')],
  ['/nope.txt', missing('Not found nl')],
  ['/en/nope', missing('Not found en')],
  ['/en/nope.txt', missing('Not found en')],
  ['/404.html', missing('Not found nl')],
  ['/.vite/manifest.json', missing('Not found nl')],
  ['/.mandje/inline-style-hashes.json', missing('Not found nl')],
  ['/%2e%2e/secret.txt', missing('Not found nl')],
  // Empty segments: never an address of their own.
  ['//', moved('/')],
  ['/en//', moved('/en/')],
  ['/en//?utm_source=mail', moved('/en/?utm_source=mail')],
  ['//privacy', moved('/privacy')],
  ['/%2F/privacy', moved('/privacy')],
  [`//${ASSET}`, missing('Not found nl')],
  ['/en//nope', missing('Not found en')],
];

let siteDir: string;
let runner: LocalRunner;
let cloudFront: (path: string) => Answer;

beforeAll(async () => {
  siteDir = mkdtempSync(join(tmpdir(), 'mandje-parity-'));
  for (const [file, marker] of Object.entries(SITE_FILES)) {
    mkdirSync(dirname(join(siteDir, file)), { recursive: true });
    writeFileSync(join(siteDir, file), file.endsWith('.html') ? `<h1>${marker}</h1>` : marker);
  }
  runner = await startLocalRunner({ port: 0, dataDir: ':memory:', distDir: siteDir });
  cloudFront = cloudFrontOf(Template.fromStack(synthStack({ siteDir })));
});

afterAll(async () => {
  await runner?.close();
});

type Handler = (event: unknown) => Record<string, unknown>;

// The viewer-request function, the bucket (S3's 403 for a missing key is /404.html with 404), the viewer-response one.
function cloudFrontOf(template: Template): (path: string) => Answer {
  const functions = Object.values(template.findResources('AWS::CloudFront::Function')) as {
    Properties: { FunctionCode: string; FunctionConfig: { Comment: string } };
  }[];
  const handlerFor = (comment: RegExp) => {
    const found = functions.find((fn) => comment.test(fn.Properties.FunctionConfig.Comment));
    return new Function(`${found?.Properties.FunctionCode}; return handler;`)() as Handler;
  };
  const viewerRequest = handlerFor(/one address/);
  const viewerResponse = handlerFor(/404/);
  const uploaded = new Map<string, string>();
  for (const { Properties } of Object.values(template.findResources('Custom::CDKBucketDeployment')))
    for (const key of Properties.Include) uploaded.set(key, Properties.SystemMetadata['cache-control']);

  return (path) => {
    const [uri = '', query] = path.split('?');
    const querystring = Object.fromEntries(
      [...new URLSearchParams(query ?? '')].map(([name, value]) => [name, { value }]),
    );
    const request = viewerRequest({ request: { uri, querystring } }) as {
      uri?: string;
      statusCode?: number;
      headers?: { location: { value: string } };
    };
    if (request.statusCode) return { status: request.statusCode, location: request.headers?.location.value };
    const key = decodeURI((request.uri ?? '').slice(1));
    const found = uploaded.has(key);
    const servedKey = found ? key : '404.html';
    const response = viewerResponse({
      request: { uri, querystring },
      response: { statusCode: found ? 200 : 404 },
    }) as { statusCode: number };
    return {
      status: response.statusCode,
      body: SITE_FILES[servedKey],
      cacheControl: uploaded.get(servedKey),
    };
  };
}

async function local(path: string): Promise<Answer> {
  // Appended, not resolved: `//x` resolved against the runner's URL would name another host.
  const answer = await plainRequest(runner.url.slice(0, -1) + path);
  if (answer.status === 301) return { status: 301, location: String(answer.headers.location) };
  const text = answer.body.toString();
  const body = Object.values(SITE_FILES).find((marker) => text === marker || text === `<h1>${marker}</h1>`);
  return { status: answer.status, body, cacheControl: String(answer.headers['cache-control']) };
}

describe('the site is served alike by CloudFront and the local runner', () => {
  it.each(TABLE)('%s', async (path, expected) => {
    expect(cloudFront(path), 'CloudFront').toEqual(expected);
    expect(await local(path), 'local runner').toEqual(expected);
  });
});
