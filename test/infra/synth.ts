import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { MandjeStack, type MandjeStackProps } from '../../infra/mandje-stack';

/** A stand-in for dist/: the stack only needs a folder to package. */
export function fakeSiteDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mandje-site-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Mandje</title>');
  writeFileSync(join(dir, '404.html'), '<!doctype html><title>404</title>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  return dir;
}

export function synthStack(props: Partial<MandjeStackProps> = {}, app = new App()): MandjeStack {
  return new MandjeStack(app, 'Mandje', {
    env: { account: '123456789012', region: 'eu-west-1' },
    siteDir: fakeSiteDir(),
    ...props,
  });
}
