import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { drawWordmark, wordmarkBoxModule, wordmarkSvg } from '../../../frontend/scripts/wordmark-path';

const frontendDir = join(import.meta.dirname, '../../../frontend');
const read = (path: string) => readFileSync(join(frontendDir, path));

it("the logo's wordmark is the brand's name drawn from the page's own font file (a new file needs `npm run font`)", async () => {
  const drawn = await drawWordmark(read('src/fonts/bricolage-grotesque.woff2'));

  expect(read('src/components/wordmark.svg').toString('utf8')).toBe(wordmarkSvg(drawn));
  expect(read('src/components/wordmark-box.ts').toString('utf8')).toBe(wordmarkBoxModule(drawn));
});
