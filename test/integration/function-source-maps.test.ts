/** A function's log names the line in functions/, not the bundle (bundled here by the build's bundleFunction). */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunction, FUNCTIONS, type FunctionName } from '../../functions/build';

const root = resolve(import.meta.dirname, '../..');
const names = Object.keys(FUNCTIONS) as FunctionName[];
let outDir: string;
const bundles = {} as Record<FunctionName, string>;

beforeAll(async () => {
  // Inside the repository, so the bundles find the AWS SDK (left out of them) in node_modules/.
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  outDir = mkdtempSync(join(root, 'node_modules/.cache/mandje-functions-'));
  for (const name of names) bundles[name] = await bundleFunction(name, join(outDir, name));
});

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('each function’s bundle', () => {
  it.each(names)('%s links index.mjs.map, which maps it to its sources in functions/', (name) => {
    const bundle = readFileSync(bundles[name], 'utf8');
    const map = JSON.parse(readFileSync(`${bundles[name]}.map`, 'utf8')) as {
      sources: string[];
      mappings: string;
      sourcesContent?: unknown;
    };
    const sources = map.sources.map((source) => relative(root, resolve(dirname(bundles[name]), source)));

    expect(bundle.trimEnd().endsWith('//# sourceMappingURL=index.mjs.map')).toBe(true);
    expect(sources).toContain(FUNCTIONS[name]);
    expect(map.mappings).not.toBe('');
    // The sources' text stays out: a trace needs only the mappings.
    expect(map.sourcesContent).toBeUndefined();
  });
});

describe('a stack trace from a built function', () => {
  /** The trace of the API function failing at start-up, as it does without TABLE_NAME. */
  const startupTrace = (nodeOptions: string[]) => {
    const { TABLE_NAME: _, ...environment } = process.env;
    const run = spawnSync(
      process.execPath,
      [...nodeOptions, '--input-type=module', '-e', `await import(${JSON.stringify(bundles.api)});`],
      { encoding: 'utf8', env: environment },
    );
    return run.stderr;
  };

  it('names the source file and line with --enable-source-maps, as the stack runs it, and only the bundle without', () => {
    const mapped = startupTrace(['--enable-source-maps']);
    const bare = startupTrace([]);

    for (const trace of [mapped, bare])
      expect(trace).toContain('Environment variable TABLE_NAME is required');
    expect(mapped).toMatch(/functions\/store\/store-client\.ts:\d+:\d+/);
    expect(mapped).toMatch(/functions\/[a-z-]+\/handler\.ts:\d+:\d+/);
    expect(bare).toMatch(/index\.mjs:\d+:\d+/);
    expect(bare).not.toContain('functions/store/store-client.ts');
  });
});
