import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { App, type CfnResource, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { confirmPageFile } from '#contract/confirmation';
import { leavePageFile } from '#contract/leave';
import { LOCALES } from '#contract/locales';
import { INLINE_HASHES_FILE, inlineHash } from '#contract/security-headers';
import { DEFAULT_SITE_CONFIG } from '#contract/site-config';
import {
  addMandjeApp,
  addMandjeStacks,
  type MandjeEdgeStack,
  type MandjeStacksProps,
} from '../../infra/mandje-app';
import type { MandjeStack } from '../../infra/mandje-stack';

export const FAKE_INLINE_STYLE = 'body{color:#1c1917}';

/** A stand-in for dist/ as the build leaves it: pages with an inline style, its hash listed, an asset. */
export function fakeSiteDir({ listStyleHash = true } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'mandje-site-'));
  const page = (title: string) => `<!doctype html><title>${title}</title><style>${FAKE_INLINE_STYLE}</style>`;
  const files = {
    'index.html': page('Mandje'),
    '404.html': page('404'),
    'assets/index-abc123.js': 'console.log(1)',
    '.well-known/security.txt': 'Contact: mailto:hallo@mandje.nl',
    [INLINE_HASHES_FILE]: JSON.stringify({
      styles: listStyleHash ? [inlineHash(FAKE_INLINE_STYLE)] : [],
      scripts: [],
    }),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** A stand-in for dist-functions/: each function's index.mjs and its map, the token pages beside the API's. */
export function fakeFunctionsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mandje-functions-'));
  for (const name of ['api', 'mail-requests', 'mailer', 'mail-events']) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'index.mjs'), `export const handler = async () => '${name}';\n`);
    writeFileSync(join(dir, name, 'index.mjs.map'), '{}');
  }
  for (const language of LOCALES)
    for (const page of [confirmPageFile(language), leavePageFile(language)])
      writeFileSync(join(dir, 'api', page), `<!doctype html><title>${language}</title>`);
  return dir;
}

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

export const synthStack = (props: Partial<MandjeStacksProps> = {}) => synthStacks(props).mandje;

export type Resource = { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string };

export const logicalIdOf = (construct: IConstruct): string =>
  Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnResource);

export const resourcesOf = (template: Template, type: string) =>
  Object.values(template.findResources(type)) as Resource[];

export const propertiesOf = (template: Template, construct: IConstruct) =>
  (template.toJSON().Resources[logicalIdOf(construct)] as Resource).Properties;

/** Example facts about the data's controller, as `npm run test:aws` gives its synth. */
export const EXAMPLE_CONTROLLER = {
  MANDJE_CONTROLLER_NAME: 'Voorbeeld B.V.',
  MANDJE_CONTROLLER_ADDRESS: 'Voorbeeldstraat 1, 1234 AB Utrecht',
  MANDJE_CONTROLLER_KVK: '12345678',
};

/** The app as infra/bin/app.ts makes it. */
export function synthApp(env: Record<string, string> = {}) {
  const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'mandje-app-')) });
  const stacks = addMandjeApp(app, {
    siteDir: fakeSiteDir(),
    functionsDir: fakeFunctionsDir(),
    env: { ...EXAMPLE_CONTROLLER, ...env },
  });
  return { app, ...stacks };
}
