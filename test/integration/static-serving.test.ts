import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '#contract/security-headers';
import { type LocalRunner, startLocalRunner } from '../../local/runner';
import { createStaticFileCache } from '../../local/static-site';
import { plainRequest } from './plain-http';
import { createSiteFixture, type SiteFixture } from './site-fixture';

let site: SiteFixture;
let runner: LocalRunner;
const at = (path: string) => new URL(path, runner.url).href;

beforeAll(async () => {
  site = createSiteFixture();
  runner = await startLocalRunner({ port: 0, dataDir: ':memory:', distDir: site.distDir });
});

afterAll(async () => {
  await runner?.close();
});

describe('the runner serves the built page as CloudFront does', () => {
  it('sends brotli to a client that takes brotli and gzip, and says the answer varies by encoding', async () => {
    const answer = await plainRequest(at(site.assetPath), {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });

    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toBe('accept-encoding');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.byteLength);
    expect(answer.body.byteLength).toBeLessThan(site.assetText.length / 2);
    expect(brotliDecompressSync(answer.body).toString()).toBe(site.assetText);
  });

  it('sends gzip when brotli is not offered or refused with q=0, and the bytes as they are when nothing is', async () => {
    for (const acceptEncoding of ['gzip', 'br;q=0, gzip;q=0.8']) {
      const gzipped = await plainRequest(at('/'), { headers: { 'accept-encoding': acceptEncoding } });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzipped.body).toString()).toContain('<h1>Mandje</h1>');
    }
    const plain = await plainRequest(at('/'));
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.body.toString()).toBe(readFileSync(join(site.distDir, 'index.html'), 'utf8'));
  });

  it('leaves small files and images uncompressed, as CloudFront does below 1,000 bytes', async () => {
    const icon = await plainRequest(at('/favicon.svg'), { headers: { 'accept-encoding': 'br, gzip' } });

    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers.vary).toBeUndefined();
  });

  it('caches hashed assets for a year as immutable, and has pages and other files revalidated', async () => {
    expect((await plainRequest(at(site.assetPath))).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    for (const path of ['/', '/en/', '/robots.txt', '/favicon.svg', '/privacy']) {
      expect((await plainRequest(at(path))).headers['cache-control'], path).toBe('no-cache');
    }
  });

  it('answers a revalidation of an unchanged file with 304 and no body, by ETag and by date', async () => {
    const first = await plainRequest(at('/'), { headers: { 'accept-encoding': 'br' } });
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers['last-modified']);

    const byEtag = await plainRequest(at('/'), {
      headers: { 'accept-encoding': 'br', 'if-none-match': etag },
    });
    expect(byEtag.status).toBe(304);
    expect(byEtag.body.byteLength).toBe(0);
    expect(byEtag.headers.etag).toBe(etag);
    expect(byEtag.headers['cache-control']).toBe('no-cache');

    const byDate = await plainRequest(at('/'), { headers: { 'if-modified-since': lastModified } });
    expect(byDate.status).toBe(304);

    // Another encoding is another representation: the brotli tag does not validate the gzip bytes.
    const otherEncoding = await plainRequest(at('/'), {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(otherEncoding.status).toBe(200);
  });

  it('serves a file changed on disk anew, with a new ETag, instead of what it compressed before', async () => {
    const path = join(site.distDir, 'robots.txt');
    const before = await plainRequest(at('/robots.txt'), { headers: { 'accept-encoding': 'br' } });

    writeFileSync(path, `User-agent: *\nDisallow: /private\n${'# changed\n'.repeat(200)}`);
    const later = new Date(statSync(path).mtimeMs + 5_000);
    utimesSync(path, later, later);
    const after = await plainRequest(at('/robots.txt'), {
      headers: { 'accept-encoding': 'br', 'if-none-match': String(before.headers.etag) },
    });

    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(brotliDecompressSync(after.body).toString()).toContain('Disallow: /private');
  });

  it('compresses a file once and reuses the result until the file changes', async () => {
    const cache = createStaticFileCache();
    const path = join(site.distDir, 'index.html');
    const stats = statSync(path);

    const first = cache.get(path, stats);
    expect(cache.get(path, stats)).toBe(first);
    expect(cache.get(path, { mtime: new Date(stats.mtimeMs + 1_000), size: stats.size })).not.toBe(first);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await plainRequest(at('/en/'), { headers: { 'accept-encoding': 'br' } });
    const head = await plainRequest(at('/en/'), { method: 'HEAD', headers: { 'accept-encoding': 'br' } });

    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    for (const name of [
      'content-type',
      'content-length',
      'content-encoding',
      'etag',
      'cache-control',
      'vary',
    ]) {
      expect(head.headers[name], name).toBe(get.headers[name]);
    }
  });

  it('serves folder pages at their one address, and sends the other spelling there with 301', async () => {
    const privacy = await plainRequest(at('/privacy'));
    expect(privacy.status).toBe(200);
    expect(privacy.body.toString()).toContain('<h1>Privacyverklaring</h1>');
    expect((await plainRequest(at('/en/privacy'))).body.toString()).toContain('<h1>Privacy notice</h1>');

    for (const [path, location] of [
      ['/en', '/en/'],
      ['/privacy/', '/privacy'],
      ['/en/privacy/?ref=mail', '/en/privacy?ref=mail'],
    ]) {
      const moved = await plainRequest(at(path as string));
      expect(moved.status, path).toBe(301);
      expect(moved.headers.location, path).toBe(location);
    }
  });

  it('answers unknown pages and files with the not-found page of their language and status 404', async () => {
    for (const [path, heading] of [
      ['/nergens', 'Pagina niet gevonden'],
      ['/assets/index-missing.js', 'Pagina niet gevonden'],
      ['/en/nowhere/', 'Page not found'],
      ['/en/nowhere.txt', 'Page not found'],
    ]) {
      const missing = await plainRequest(at(path as string));
      expect(missing.status, path).toBe(404);
      expect(missing.headers['cache-control'], path).toBe('no-cache');
      expect(missing.body.toString(), path).toContain(`<h1>${heading}</h1>`);
    }
  });

  it('sends the security headers with every kind of answer', async () => {
    const answers = [
      await plainRequest(at('/')),
      await plainRequest(at(site.assetPath)),
      await plainRequest(at('/'), { headers: { 'if-none-match': '*' } }),
      await plainRequest(at('/en')),
      await plainRequest(at('/nergens')),
      await plainRequest(at('/'), { method: 'DELETE' }),
      await plainRequest(at('/%zz')),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 304, 301, 404, 405, 404]);
    for (const answer of answers) {
      for (const [name, value] of Object.entries(securityHeaders())) {
        expect(answer.headers[name], `${name} on ${answer.status}`).toBe(value);
      }
    }
  });
});
