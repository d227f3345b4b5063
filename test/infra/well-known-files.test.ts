import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeSiteDir, synthStack } from './synth';

let template: Template;
let assetDirs: string[];

beforeAll(() => {
  const siteDir = fakeSiteDir();
  mkdirSync(join(siteDir, '.well-known'));
  writeFileSync(join(siteDir, '.well-known', 'security.txt'), 'Contact: mailto:hallo@mandje.nl\n');
  writeFileSync(join(siteDir, 'robots.txt'), 'User-agent: *\n');
  writeFileSync(join(siteDir, 'sitemap.xml'), '<urlset/>');
  const app = new App();
  template = Template.fromStack(synthStack({ siteDir }, app));
  assetDirs = readdirSync(app.outdir)
    .filter((name) => name.startsWith('asset.'))
    .map((name) => join(app.outdir, name));
});

describe('the files the build writes for robots and security researchers', () => {
  it('uploads /.well-known/security.txt as UTF-8 plain text, revalidated, with robots.txt', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      Include: ['.well-known/security.txt', 'robots.txt'],
      Exclude: ['*'],
      SystemMetadata: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' },
    });
  });

  it('uploads sitemap.xml as XML, revalidated', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      Include: ['sitemap.xml'],
      SystemMetadata: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'no-cache' },
    });
  });

  it('puts security.txt, dot folder and all, in the asset the deployment copies from', () => {
    expect(assetDirs.filter((dir) => existsSync(join(dir, '.well-known', 'security.txt')))).toHaveLength(1);
  });

  it('lets the viewer-request function pass /.well-known/security.txt through to the bucket as it is', () => {
    const functions = Object.values(template.findResources('AWS::CloudFront::Function')) as {
      Properties: { FunctionCode: string; FunctionConfig: { Comment: string } };
    }[];
    const code = functions.find((fn) => /one address/.test(fn.Properties.FunctionConfig.Comment))?.Properties
      .FunctionCode;
    const viewerRequest = new Function(`${code}; return handler;`)() as (event: unknown) => { uri?: string };
    const uriFor = (uri: string) => viewerRequest({ request: { uri, querystring: {} } }).uri;

    expect(uriFor('/.well-known/security.txt')).toBe('/.well-known/security.txt');
    expect(uriFor('/.well-known/other.txt')).toBe('/404.html');
    expect(uriFor('/.mandje/inline-hashes.json')).toBe('/404.html');
  });
});
