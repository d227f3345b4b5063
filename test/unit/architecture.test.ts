/**
 * Arrows point one way: what the page and the API share lives in contract/, with no dependencies; the
 * Lambda code never reaches into the page, the runner or the stack; the production build never imports
 * the benchmarks; and a feature of the page imports shared parts, never another feature.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every TypeScript source under `folder`, as paths relative to the repository. */
function sourcesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.tsx?$/.test(path) && !path.split(sep).includes('node_modules'))
    .map((path) => join(folder, path).split(sep).join('/'));
}

/** What a source imports: relative imports resolved to repository paths, the rest as written. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
    ...text.matchAll(/^\s*import\s+'([^']+)'/gm),
  ].map(([, specifier = '']) => specifier);
  return specifiers.map((specifier) =>
    specifier.startsWith('.')
      ? relative(ROOT, resolve(dirname(join(ROOT, file)), specifier))
          .split(sep)
          .join('/')
      : specifier,
  );
}

const violations = (files: string[], forbidden: (imported: string, file: string) => boolean) =>
  files.flatMap((file) =>
    importsOf(file)
      .filter((imported) => forbidden(imported, file))
      .map((imported) => `${file} imports ${imported}`),
  );

describe('the arrows between the parts', () => {
  it('contract/ depends on nothing but itself', () => {
    expect(violations(sourcesUnder('contract'), (imported) => !imported.startsWith('contract/'))).toEqual([]);
  });

  it('functions/ imports neither the page, the runner, the stack nor the benchmarks', () => {
    expect(
      violations(sourcesUnder('functions'), (imported) =>
        /^(frontend|local|infra|bench|test)\//.test(imported),
      ),
    ).toEqual([]);
  });

  it('the page and its production build import nothing from bench/', () => {
    expect(violations(sourcesUnder('frontend'), (imported) => imported.startsWith('bench/'))).toEqual([]);
  });

  it('a feature of the page imports shared parts, never another feature', () => {
    const featureOf = (path: string) => path.match(/^frontend\/src\/features\/([^/]+)\//)?.[1];
    expect(
      violations(sourcesUnder('frontend/src/features'), (imported, file) => {
        const target = featureOf(imported);
        return target !== undefined && target !== featureOf(file);
      }),
    ).toEqual([]);
  });

  it('shared parts of the page (components, i18n, config) import no feature', () => {
    const shared = ['frontend/src/components', 'frontend/src/i18n', 'frontend/src/config'].flatMap(
      sourcesUnder,
    );
    expect(violations(shared, (imported) => imported.startsWith('frontend/src/features/'))).toEqual([]);
  });

  it('no import climbs more than three folders', () => {
    const files = ['contract', 'functions', 'frontend', 'local', 'infra', 'bench', 'test'].flatMap(
      sourcesUnder,
    );
    const climbs = files.flatMap((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      return [...text.matchAll(/'((?:\.\.\/){4,}[^']*)'/g)].map(([, specifier]) => `${file}: ${specifier}`);
    });
    expect(climbs).toEqual([]);
  });
});
