import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Text that must never appear in any answer: it lives next to the built page, not in it. */
export const SECRET_MARKER = 'SECRET-OUTSIDE-DIST-7f3a9c';

export type SiteFixture = ReturnType<typeof createSiteFixture>;

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${'<p>Boodschappen goedkoper.</p>'.repeat(80)}</main></body></html>`;

/**
 * A built page in miniature, the shape `npm run build` gives (pages, 404.html, a hashed asset large enough to
 * be compressed), with a secret file beside it and symbolic links inside it that point at the secret, so tests
 * can prove that nothing outside dist/ is ever served.
 */
export function createSiteFixture() {
  const root = mkdtempSync(join(tmpdir(), 'mandje-site-'));
  const distDir = join(root, 'dist');
  const secretFile = join(root, 'secret.txt');
  writeFileSync(secretFile, `${SECRET_MARKER}\n`);

  for (const folder of ['en', 'assets', 'privacy', 'en/privacy'])
    mkdirSync(join(distDir, folder), { recursive: true });
  writeFileSync(join(distDir, 'index.html'), page('Mandje'));
  writeFileSync(join(distDir, 'en/index.html'), page('Mandje in English'));
  writeFileSync(join(distDir, 'privacy/index.html'), page('Privacyverklaring'));
  writeFileSync(join(distDir, 'en/privacy/index.html'), page('Privacy notice'));
  writeFileSync(join(distDir, '404.html'), page('Pagina niet gevonden'));
  writeFileSync(join(distDir, 'en/404.html'), page('Page not found'));
  writeFileSync(join(distDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(distDir, 'robots.txt'), `User-agent: *\nAllow: /\n${'# Mandje\n'.repeat(200)}`);
  const assetText = `export const deals = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ id: i, name: `Aanbieding ${i}` })))};`;
  const assetPath = '/assets/index-Ab12Cd34.js';
  writeFileSync(join(distDir, assetPath), assetText);

  // Links inside the folder that lead out of it: to the secret file, and to the folder around dist/.
  symlinkSync(secretFile, join(distDir, 'leak.txt'));
  symlinkSync(root, join(distDir, 'outside'));
  return { distDir, secretFile, assetPath, assetText };
}
