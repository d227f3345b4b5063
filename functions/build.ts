// Bundles each function into dist-functions/<name>/index.mjs with its source map and run-time files: what
// the stack deploys, byte for byte. The AWS SDK is bundled: the lockfile's version runs, not the runtime's.
import { copyFileSync, existsSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { confirmPageFile } from '#contract/confirmation';
import { leavePageFile } from '#contract/leave';
import { LOCALES } from '#contract/locales';

const root = resolve(import.meta.dirname, '..');
const outDir = join(root, 'dist-functions');

export const FUNCTIONS = {
  api: 'functions/api/handler.ts',
  'mail-requests': 'functions/mailer/stream-handler.ts',
  mailer: 'functions/mailer/handler.ts',
  'mail-events': 'functions/mail-events/handler.ts',
};

export type FunctionName = keyof typeof FUNCTIONS;

export async function bundleFunction(name: FunctionName, functionDir: string): Promise<string> {
  const outfile = join(functionDir, 'index.mjs');
  await build({
    entryPoints: [join(root, FUNCTIONS[name])],
    outfile,
    bundle: true,
    minify: true,
    // A trace needs only the mappings: the map stays a fraction of the size.
    sourcemap: 'linked',
    sourcesContent: false,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    // Bundled CommonJS may call require(); an ES module has none unless it is made.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return outfile;
}

if (import.meta.filename === process.argv[1]) {
  rmSync(outDir, { recursive: true, force: true });
  for (const name of Object.keys(FUNCTIONS) as FunctionName[]) {
    const functionDir = join(outDir, name);
    const outfile = await bundleFunction(name, functionDir);
    // The API serves the prerendered confirm and leave pages from beside its code.
    const pages = LOCALES.flatMap((language) => [confirmPageFile(language), leavePageFile(language)]);
    for (const page of name === 'api' ? pages : []) {
      const file = join(root, 'dist/.mandje', page);
      if (!existsSync(file))
        throw new Error(`${relative(root, file)} is missing: build the page first (npm run build)`);
      copyFileSync(file, join(functionDir, page));
    }
    const kb = (file: string) => `${(statSync(file).size / 1024).toFixed(1)} KB`;
    console.log(
      `Lambda ${name}: ${relative(root, outfile)} ${kb(outfile)} minified, source map ${kb(`${outfile}.map`)} beside it`,
    );
  }
}
