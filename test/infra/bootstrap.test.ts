// From a fresh clone to a deploy, as README.md and docs/deploying.md tell it: the build, then `cdk bootstrap` of
// both environments (the stack's region and us-east-1), and a deploy role that may assume what the CLI assumes.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { synthApp } from './synth';

const repoRoot = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(resolve(repoRoot, path), 'utf8');
const ACCOUNT = '123456789012';
const REGION = 'eu-west-1';

describe('the documented bootstrap', () => {
  it('is `npm run bootstrap`: the controller check, the build, then `cdk bootstrap` of the app’s environments', () => {
    const scripts = JSON.parse(
      spawnSync('npm', ['pkg', 'get', 'scripts'], { cwd: repoRoot, encoding: 'utf8' }).stdout,
    ) as Record<string, string>;
    const steps = (scripts.bootstrap ?? '').split(' && ');

    expect(steps.slice(0, 2)).toEqual(['tsx infra/bin/require-controller.ts', 'npm run build']);
    // No environment named: the CLI bootstraps each one the app's stacks name, with the credentials' account.
    expect(steps[2]).toMatch(/(^| )cdk bootstrap$/);
  });

  it.each(['README.md', 'docs/deploying.md'])('is the one %s gives, before the deploy', (page) => {
    const text = read(page);
    const commands = [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
      .map(([, block = '']) => block.split('\n').map((line) => line.replace(/#.*/, '').trim()))
      .find((lines) => lines.includes('npm run deploy'));

    expect(text).not.toMatch(/cdk bootstrap aws:|npx cdk bootstrap/);
    expect(commands?.filter((line) => /bootstrap|deploy/.test(line))).toEqual([
      'npm run bootstrap',
      'npm run deploy',
    ]);
  });

  // The stacks' two regions themselves: mandje-app.test.ts.
  it.each(['README.md', 'docs/deploying.md'])(
    'names the two environments the app’s stacks deploy to in %s',
    (page) => {
      expect(read(page)).toContain('`aws://<account>/<region>` and `aws://<account>/us-east-1`');
    },
  );
});

describe('the GitHub deploy role’s permissions in docs/deploying.md', () => {
  const policy = () => {
    const text = read('docs/deploying.md');
    const block = text
      .slice(text.indexOf('(`deploy-permissions.json`)'))
      .match(/```json\n([\s\S]*?)```/)?.[1];
    const filled = (block ?? '{}').replaceAll('<account>', ACCOUNT).replaceAll('<region>', REGION);
    return JSON.parse(filled) as { Statement: { Effect: string; Action: string; Resource: string[] }[] };
  };

  it('let it assume every role the CDK CLI assumes to deploy each stack, in its own region', () => {
    const assembly = synthApp({ MANDJE_AWS_REGION: REGION }).app.synth();
    const concrete = (arn: string) =>
      arn.replace(/\$\{AWS::Partition\}/g, 'aws').replace(/\$\{AWS::AccountId\}/g, ACCOUNT);
    const assets = assembly.artifacts.flatMap((artifact) => {
      const file = (artifact.manifest.properties as { file?: string } | undefined)?.file;
      if (artifact.manifest.type !== 'cdk:asset-manifest' || !file) return [];
      const manifest = JSON.parse(readFileSync(join(assembly.directory, file), 'utf8')) as {
        files: Record<string, { destinations: Record<string, { assumeRoleArn: string }> }>;
      };
      return Object.values(manifest.files).flatMap((asset) =>
        Object.values(asset.destinations).map((destination) => destination.assumeRoleArn),
      );
    });
    const needed = new Set(
      [...assembly.stacks.map((stack) => String(stack.assumeRoleArn)), ...assets].map(concrete),
    );
    const allowed = policy()
      .Statement.filter((statement) => statement.Effect === 'Allow' && statement.Action === 'sts:AssumeRole')
      .flatMap((statement) => statement.Resource);

    expect([...needed].some((arn) => arn.endsWith(`-${ACCOUNT}-us-east-1`))).toBe(true);
    expect([...needed].filter((arn) => !allowed.includes(arn))).toEqual([]);
  });
});
