/** The built page as the runner serves it, as CloudFront does: encodings, validators, headers (paths, caching and 404: site-parity). */
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '#contract/security-headers';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { httpRequest, plainRequest, rawRequest } from './raw-http';
import { createSiteFixture, SECRET_MARKER, type SiteFixture } from './site-fixture';

let site: SiteFixture;
let runner: LocalRunner;
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  plainRequest(new URL(path, runner.url).href, { headers, method });

beforeAll(async () => {
  site = createSiteFixture();
  runner = await startLocalRunner({ port: 0, dataDir: ':memory:', distDir: site.distDir });
});
afterAll(() => runner?.close());

describe('the runner serves the built page as CloudFront does', () => {
  it('sends brotli when taken (HEAD: its headers), else gzip (also when br has q=0), else the bytes; small files as they are', async () => {
    const br = await get(site.assetPath, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding' });
    expect(Number(br.headers['content-length'])).toBe(br.body.byteLength);
    expect(br.body.byteLength).toBeLessThan(site.assetText.length / 2);
    expect(brotliDecompressSync(br.body).toString()).toBe(site.assetText);
    // HEAD: the headers of GET, no body.
    const head = await get(site.assetPath, { 'accept-encoding': 'gzip, deflate, br' }, 'HEAD');
    expect([head.body.byteLength, { ...head.headers, date: 0 }]).toEqual([0, { ...br.headers, date: 0 }]);
    for (const acceptEncoding of ['gzip', 'br;q=0, gzip;q=0.8']) {
      const gzipped = await get('/', { 'accept-encoding': acceptEncoding });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzipped.body).toString()).toContain('<h1>Mandje</h1>');
    }
    const plain = await get('/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(readFileSync(join(site.distDir, 'index.html'), 'utf8'));
    // Below CloudFront's 1,000 bytes.
    const icon = await get('/favicon.svg', { 'accept-encoding': 'br, gzip' });
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers.vary).toBeUndefined();
  });

  it('answers an unchanged file with 304 by ETag or date, per encoding, and a changed one anew', async () => {
    const first = await get('/', { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    const byEtag = await get('/', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(byEtag).toMatchObject({ status: 304, body: Buffer.alloc(0) });
    expect(byEtag.headers).toMatchObject({ etag, 'cache-control': 'no-cache' });
    expect((await get('/', { 'if-modified-since': String(first.headers['last-modified']) })).status).toBe(
      304,
    );
    // Another encoding is another representation: the brotli tag does not validate the gzip bytes.
    expect((await get('/', { 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(200);

    const path = join(site.distDir, 'robots.txt');
    const before = await get('/robots.txt', { 'accept-encoding': 'br' });
    writeFileSync(path, `User-agent: *\nDisallow: /private\n${'# changed\n'.repeat(200)}`);
    const later = new Date(statSync(path).mtimeMs + 5_000);
    utimesSync(path, later, later);
    const after = await get('/robots.txt', {
      'accept-encoding': 'br',
      'if-none-match': String(before.headers.etag),
    });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(brotliDecompressSync(after.body).toString()).toContain('Disallow: /private');
  });

  it('sends the security headers with every kind of answer', async () => {
    const answers = [
      await get('/'),
      await get('/', { 'if-none-match': '*' }),
      await get('/en'),
      await get('/nergens'),
      await get('/', {}, 'DELETE'),
      await get('/api/nope', {}, 'POST'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 304, 301, 404, 405, 404]);
    for (const answer of answers)
      for (const [name, value] of Object.entries(securityHeaders()))
        expect(answer.headers[name], `${name} on ${answer.status}`).toBe(value);
  });

  it('serves no file outside the built page, whatever the encoding or link, and answers 400 or 404', async () => {
    const traversals = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/.%2e/secret.txt',
      '/%2E%2E/%2E%2E/secret.txt',
      '/..%5csecret.txt',
      '/..\\secret.txt',
      '/%252e%252e%252fsecret.txt',
      '/..%c0%afsecret.txt',
      '/secret.txt%00.html',
      '/%00/../secret.txt',
      '//secret.txt',
      '/outside/secret.txt',
      site.secretFile,
      `/${site.secretFile}`,
      encodeURI(site.secretFile),
      'http://localhost/../secret.txt',
      '/leak.txt',
    ];
    for (const path of traversals) {
      const answer = await rawRequest(runner.url, httpRequest('GET', path));
      expect([400, 404], path).toContain(answer.status);
      expect(answer.rest, path).not.toContain(SECRET_MARKER);
    }
    // A link inside the folder that names the secret is turned away as an unknown page.
    expect((await get('/leak.txt')).body.toString()).toContain('Pagina niet gevonden');
  });
});
