// The GitHub workflows cannot run here: these checks keep them honest as text (no YAML parser needed).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { deploySettings } from '../../infra/deploy-settings';

const repoRoot = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(resolve(repoRoot, path), 'utf8');
const ci = read('.github/workflows/ci.yml');
const deploy = read('.github/workflows/deploy.yml');

/** The lines of a top-level key's block (`on:`, `permissions:`), comments and blank lines left out. */
function topLevelBlock(workflow: string, key: string): string[] {
  const lines = workflow.split('\n');
  const start = lines.indexOf(`${key}:`);
  if (start === -1) throw new Error(`the workflow has no top-level ${key}:`);
  const end = lines.findIndex((line, index) => index > start && /^\S/.test(line) && !line.startsWith('#'));
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

/** The keys directly under a block, at its first indentation. */
const keysOf = (block: string[]) => {
  const indent = block[0]?.match(/^ */)?.[0] ?? '';
  return block
    .filter((line) => /^ *\S/.test(line) && line.match(/^ */)?.[0] === indent)
    .map((line) => line.trim());
};

/** The text of every `run:` step: its one line, or the lines of its block (`run: |`, `run: >-`). */
function scriptsOf(workflow: string): string[] {
  const lines = workflow.split('\n');
  return lines.flatMap((line, index) => {
    const run = line.match(/^(\s*)(?:- )?run: ?(.*)$/);
    if (!run) return [];
    const [, indent = '', rest = ''] = run;
    if (!/^[|>]/.test(rest)) return [rest];
    const following = lines.slice(index + 1);
    const end = following.findIndex((next) => next.trim() !== '' && !next.startsWith(`${indent}  `));
    return [following.slice(0, end === -1 ? undefined : end).join('\n')];
  });
}

/** The context names deploy-settings.ts reads: as `setting('name'`, `checked('name'`, `numeric('name'`, or
 * both of `together('one', 'other')`. */
const settingNames = [
  ...read('infra/deploy-settings.ts').matchAll(
    /\b(?:setting|checked|numeric|together)\(\s*'([A-Za-z]+)'(?:, '([A-Za-z]+)'\))?/g,
  ),
].flatMap((match) => match.slice(1).filter((name) => name !== undefined));

/** The names the deploy workflow's scripts pass as `-c "name=…"`. */
const passedNames = [
  ...scriptsOf(deploy)
    .join('\n')
    .matchAll(/-c "?([A-Za-z]+)=/g),
].map((match) => match[1] as string);

describe('the GitHub workflows', () => {
  it('pin every action by a full commit SHA, with its version in a comment', () => {
    const uses = [ci, deploy].flatMap((workflow) =>
      workflow.split('\n').filter((line) => /^\s*-?\s*uses:/.test(line)),
    );
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) expect(line).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
  });

  it('run CI as the project does: bash .ci/run with CI=true, on push and pull request', () => {
    expect(ci).toMatch(/^ +run: bash \.ci\/run$/m);
    expect(ci).toMatch(/^ +CI: true$/m);
    expect(keysOf(topLevelBlock(ci, 'on'))).toEqual(['push:', 'pull_request:']);
    expect(keysOf(topLevelBlock(ci, 'permissions'))).toEqual(['contents: read']);
  });

  it('deploy only when started by hand, with an OIDC token and read access to the code, nothing more', () => {
    expect(keysOf(topLevelBlock(deploy, 'on'))).toEqual(['workflow_dispatch:']);
    expect(keysOf(topLevelBlock(deploy, 'permissions'))).toEqual(['id-token: write', 'contents: read']);
    expect(deploy).toMatch(/^ +environment: production$/m);
  });

  it('pass the deploy every setting infra/deploy-settings.ts reads, and nothing else', () => {
    expect(settingNames.length).toBeGreaterThan(0);
    expect(passedNames.filter((name) => !settingNames.includes(name))).toEqual([]);
    expect([...passedNames].sort()).toEqual([...new Set(settingNames)].sort());
  });

  it('pass the page’s build and the stack every site fact contract/site-config.ts reads, the sender as -c mailFrom', () => {
    const siteVariables = [
      ...read('contract/site-config.ts').matchAll(/^ {2}(MANDJE_\w+): setting\(/gm),
    ].filter((match) => match[1] !== 'MANDJE_MAIL_FROM');
    const passed = [...deploy.matchAll(/^ +(MANDJE_\w+): \$\{\{ vars\.\1 \}\}$/gm)];

    expect(siteVariables.map((match) => match[1])).toContain('MANDJE_AWS_REGION');
    expect(passed.map((match) => match[1]).sort()).toEqual(siteVariables.map((match) => match[1]).sort());
  });

  it('can pass a setting left empty: deploy-settings.ts takes it as not given', () => {
    const allEmpty = Object.fromEntries(passedNames.map((name) => [name, '']));
    expect(deploySettings(new App({ context: { ...allEmpty, mailFrom: 'hallo@mandje.nl' } }))).toEqual(
      deploySettings(new App({ context: { mailFrom: 'hallo@mandje.nl' } })),
    );
  });

  it('deploy between preflight and smoke, stopping on either', () => {
    const step = (pattern: RegExp) => scriptsOf(deploy).findIndex((script) => pattern.test(script));
    const preflight = step(/waitlist -- preflight$/);
    expect(preflight).toBeGreaterThan(-1);
    expect(preflight).toBeLessThan(step(/^\s*npm run deploy /));
    expect(step(/^\s*npm run deploy /)).toBeLessThan(step(/waitlist -- smoke /));
    expect(deploy.slice(deploy.indexOf('      preflight:'))).toMatch(/^ +type: boolean\n +default: true$/m);
    expect(deploy).not.toMatch(/continue-on-error|\|\| *true/);
  });

  it('put no input or variable into a script’s text, only into its environment', () => {
    for (const workflow of [ci, deploy])
      for (const script of scriptsOf(workflow)) expect(script).not.toContain('${{');
  });
});
