import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { confirmPageFile } from '#contract/confirmation';
import { leavePageFile } from '#contract/leave';
import { LOCALES } from '#contract/locales';
import { INLINE_HASHES_FILE, inlineHash } from '#contract/security-headers';
import { DEFAULT_SITE_CONFIG } from '#contract/site-config';
import { addMandjeStacks, type MandjeEdgeStack, type MandjeStacksProps } from '../../infra/mandje-app';
import type { MandjeStack } from '../../infra/mandje-stack';

/** The inline style of the stand-in pages, as a build would inline the stylesheet. */
export const FAKE_INLINE_STYLE = 'body{color:#1c1917}';

/** A stand-in for dist/ as the build leaves it: pages with an inline style, its hash listed, an asset. */
export function fakeSiteDir({ listStyleHash = true } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'mandje-site-'));
  mkdirSync(join(dir, 'assets'));
  const page = (title: string) => `<!doctype html><title>${title}</title><style>${FAKE_INLINE_STYLE}</style>`;
  writeFileSync(join(dir, 'index.html'), page('Mandje'));
  writeFileSync(join(dir, '404.html'), page('404'));
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  mkdirSync(join(dir, dirname(INLINE_HASHES_FILE)));
  writeFileSync(
    join(dir, INLINE_HASHES_FILE),
    JSON.stringify({ styles: listStyleHash ? [inlineHash(FAKE_INLINE_STYLE)] : [], scripts: [] }),
  );
  return dir;
}

/** The functions the build makes, each a folder in dist-functions/. */
export const FUNCTION_NAMES = ['api', 'mail-requests', 'mailer', 'mail-events'] as const;

/** The stand-in bundle of a function: tells the folders apart, as the real bundles' contents would. */
export const fakeBundle = (name: string) => `export const handler = async () => '${name}';\n`;

/** The stand-in source map of a function: names its own entry, as the real maps name their sources. */
const fakeSourceMap = (name: string) =>
  JSON.stringify({
    version: 3,
    sources: [`../../functions/${name}/handler.ts`],
    names: [],
    mappings: 'AAAA',
  });

/**
 * A stand-in for dist-functions/ as functions/build.ts leaves it: one index.mjs per function with its
 * source map index.mjs.map, and the confirmation and leave pages beside the API function's.
 */
export function fakeFunctionsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mandje-functions-'));
  for (const name of FUNCTION_NAMES) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'index.mjs'), `${fakeBundle(name)}//# sourceMappingURL=index.mjs.map\n`);
    writeFileSync(join(dir, name, 'index.mjs.map'), fakeSourceMap(name));
  }
  for (const language of LOCALES)
    for (const page of [confirmPageFile(language), leavePageFile(language)])
      writeFileSync(join(dir, 'api', page), `<!doctype html><title>${language}</title>`);
  return dir;
}

/** The example sender the stack is synthesized with, unless a test says otherwise. */
export const MAIL_FROM = 'hallo@mandje.nl';

/** The stacks as infra/bin/app.ts makes them: with WAF (its us-east-1 companion) unless told `waf: false`. */
export function synthStacks(
  props: Partial<MandjeStacksProps> = {},
  app = new App(),
): { mandje: MandjeStack; edge?: MandjeEdgeStack } {
  return addMandjeStacks(app, {
    env: { account: '123456789012', region: 'eu-west-1' },
    siteDir: fakeSiteDir(),
    functionsDir: fakeFunctionsDir(),
    confirmation: { mailFrom: MAIL_FROM },
    contactEmail: DEFAULT_SITE_CONFIG.contactEmail,
    waf: true,
    ...props,
  });
}

/** The Mandje stack, as synthStacks makes it. */
export function synthStack(props: Partial<MandjeStacksProps> = {}, app = new App()): MandjeStack {
  return synthStacks(props, app).mandje;
}
