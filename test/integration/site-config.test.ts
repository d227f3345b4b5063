/**
 * One owner for each site fact: with MANDJE_CONTACT_EMAIL (and MANDJE_MAIL_FROM) set, the page's build and
 * the runner's mailer name the same addresses, each read by its real reader (the stack's: test/infra).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_PLACEHOLDER } from '#contract/confirmation';
import type { Locale } from '#contract/locales';
import { startLocalRunner } from '../../local/runner';
import { postJoin } from './waitlist-api';

const CONTACT = 'hi@example.nl';
const SENDER = 'post@example.nl';
const OVERRIDES = { MANDJE_CONTACT_EMAIL: CONTACT, MANDJE_MAIL_FROM: SENDER };

beforeEach(() => {
  for (const [name, value] of Object.entries(OVERRIDES)) vi.stubEnv(name, value);
});
afterEach(() => vi.unstubAllEnvs());

describe('the site facts, with MANDJE_CONTACT_EMAIL and MANDJE_MAIL_FROM set', () => {
  it('the page as the build renders it names the contact address, in its footer and privacy notice', async () => {
    // Inside the project, as frontend/build.ts writes it, so the bundle's imports resolve from node_modules.
    const cache = resolve(import.meta.dirname, '../../node_modules/.cache');
    mkdirSync(cache, { recursive: true });
    const outDir = mkdtempSync(join(cache, 'mandje-prerender-'));
    await build({
      configFile: resolve(import.meta.dirname, '../../frontend/vite.config.ts'),
      configLoader: 'runner',
      logLevel: 'silent',
      build: { ssr: 'src/prerender.tsx', outDir, emptyOutDir: true, copyPublicDir: false },
    });
    const { prerenderPage, discoveryFiles } = (await import(
      pathToFileURL(join(outDir, 'prerender.js')).href
    )) as {
      prerenderPage: (page: string, locale: Locale) => { body: string };
      discoveryFiles: (now: Date) => Record<string, string>;
    };

    expect(prerenderPage('home', 'nl').body).toContain(CONTACT);
    expect(prerenderPage('privacy', 'en').body).toContain(CONTACT);
    expect(prerenderPage('home', 'nl').body).not.toContain('hallo@mandje.nl');
    expect(discoveryFiles(new Date())['.well-known/security.txt']).toContain(`Contact: mailto:${CONTACT}`);
    rmSync(outDir, { recursive: true, force: true });
  });

  it('a confirmation mail the runner sends comes from the sender and names the contact address', async () => {
    const distDir = mkdtempSync(join(tmpdir(), 'mandje-dist-'));
    mkdirSync(join(distDir, '.mandje'));
    for (const language of ['nl', 'en'])
      writeFileSync(
        join(distDir, '.mandje', `confirm.${language}.html`),
        `<!doctype html><form method="post" action="/api/confirm"><input name="token" value="${TOKEN_PLACEHOLDER}"></form>`,
      );
    const runner = await startLocalRunner({ port: 0, dataDir: ':memory:', distDir });
    try {
      expect((await postJoin(runner.url, { email: 'ann@example.nl', language: 'nl' })).status).toBe(201);
      const outboxDir = runner.outboxDir as string;
      let mail: string | undefined;
      for (let waited = 0; mail === undefined && waited < 5_000; waited += 50) {
        // Whole mails only: one being written is a hidden partial file until it is renamed.
        const [file] = readdirSync(outboxDir).filter((name) => name.endsWith('.eml'));
        if (file) mail = readFileSync(join(outboxDir, file), 'utf8');
        else await new Promise((resolveWait) => setTimeout(resolveWait, 50));
      }

      expect(mail).toMatch(new RegExp(`^From: .*${SENDER}`, 'm'));
      expect(mail).toContain(CONTACT);
    } finally {
      await runner.close();
    }
  });
});
