import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Stage } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MandjeStack } from '../../infra/mandje-stack';
import { FUNCTION_NAMES, fakeFunctionsDir, synthStack } from './synth';
import { logicalIdOf, present, resourceOf } from './template-queries';

let stack: MandjeStack;
let template: Template;
let functionsDir: string;
let handlers: Record<(typeof FUNCTION_NAMES)[number], LambdaFunction>;

/** A folder's files and their contents, by path. */
const filesIn = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .sort()
      .map((path) => [path, readFileSync(join(dir, path), 'utf8')]),
  );

beforeAll(() => {
  functionsDir = fakeFunctionsDir();
  stack = synthStack({ functionsDir });
  template = Template.fromStack(stack);
  handlers = {
    api: stack.waitlist.handler,
    'mail-requests': present(stack.mailer, 'mailer').requestHandler,
    mailer: present(stack.mailer, 'mailer').handler,
    'mail-events': present(stack.mailEvents, 'mail events').handler,
  };
});

describe('each function', () => {
  it.each(FUNCTION_NAMES)('%s is deployed from its folder as the build left it, file for file', (name) => {
    const code = resourceOf(template, logicalIdOf(handlers[name])).Properties.Code as { S3Key: string };
    const assetHash = code.S3Key.replace(/\.zip$/, '');
    const staged = join(present(Stage.of(stack), 'stage').outdir, `asset.${assetHash}`);
    expect(filesIn(staged)).toEqual(filesIn(join(functionsDir, name)));
  });

  it('runs the bundle’s handler on Node.js 24, arm64', () => {
    for (const handler of Object.values(handlers))
      expect(resourceOf(template, logicalIdOf(handler)).Properties).toMatchObject({
        Handler: 'index.handler',
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
      });
  });

  it.each(FUNCTION_NAMES)('%s ships its source map and runs with --enable-source-maps', (name) => {
    const properties = resourceOf(template, logicalIdOf(handlers[name])).Properties;
    const code = properties.Code as { S3Key: string };
    const staged = join(
      present(Stage.of(stack), 'stage').outdir,
      `asset.${code.S3Key.replace(/\.zip$/, '')}`,
    );

    expect(readdirSync(staged)).toContain('index.mjs.map');
    expect((properties.Environment as { Variables: Record<string, unknown> }).Variables.NODE_OPTIONS).toBe(
      '--enable-source-maps',
    );
  });

  it('refuses to synthesize when a function has not been built', () => {
    const unbuilt = fakeFunctionsDir();
    rmSync(join(unbuilt, 'api', 'index.mjs'));
    expect(() => synthStack({ functionsDir: unbuilt })).toThrow(/api\/index\.mjs is missing/);
  });

  it('refuses to synthesize when a function was built without its source map', () => {
    const unmapped = fakeFunctionsDir();
    rmSync(join(unmapped, 'api', 'index.mjs.map'));
    expect(() => synthStack({ functionsDir: unmapped })).toThrow(/api\/index\.mjs\.map is missing/);
  });
});
