import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import {
  drawWordmark,
  wordmarkBoxModule,
  wordmarkColours,
  wordmarkSvg,
} from '../../../frontend/scripts/wordmark-path';

const srcDir = join(import.meta.dirname, '../../../frontend/src');
const read = (path: string) => readFileSync(join(srcDir, path));

it("the logo's wordmark is the brand's name drawn from the page's font file, in its brand colours (else `npm run font`)", async () => {
  const drawn = await drawWordmark(read('fonts/bricolage-grotesque.woff2'));
  const colours = wordmarkColours(read('styles.css').toString('utf8'));

  expect(colours).toEqual({ light: '#14532d', dark: '#bdf3d3' });
  expect(read('components/wordmark.svg').toString('utf8')).toBe(wordmarkSvg(drawn, colours));
  expect(read('components/wordmark-box.ts').toString('utf8')).toBe(wordmarkBoxModule(drawn));
});
