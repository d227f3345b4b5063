/**
 * Bundles each Lambda function into one minified ES module under dist-functions/, and prints its size.
 * The AWS SDK v3 is left out: the Node.js Lambda runtime provides it, so the bundle stays small and the
 * cold start short.
 */
import { statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const outDir = join(root, 'dist-functions');

const FUNCTIONS = { waitlist: 'functions/waitlist/handler.ts' };

for (const [name, entry] of Object.entries(FUNCTIONS)) {
  const outfile = join(outDir, name, 'index.mjs');
  await build({
    entryPoints: [join(root, entry)],
    outfile,
    bundle: true,
    minify: true,
    sourcemap: false,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    external: ['@aws-sdk/*'],
    // Bundled CommonJS may call require(); an ES module has none unless it is made.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  console.log(
    `Lambda ${name}: ${relative(root, outfile)} ${(statSync(outfile).size / 1024).toFixed(1)} KB minified`,
  );
}
