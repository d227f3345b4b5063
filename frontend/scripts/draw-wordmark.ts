/**
 * Draws the wordmark, the brand's name in its typeface, as one SVG path from the page's own font file
 * (frontend/src/fonts/bricolage-grotesque.woff2) in the brand's colours (frontend/src/styles.css), and
 * writes it to frontend/src/components/: wordmark.svg, the picture, and wordmark-box.ts, its size, for the
 * logo (components/brand-logo.tsx) and the social previews (draw-brand-images.ts). `npm run font` runs it
 * after writing the font file; run it alone with `npx tsx frontend/scripts/draw-wordmark.ts` (after a
 * change of the brand colour too), and commit what it writes. How it draws: wordmark-path.ts.
 *
 * Why a drawing and not text: a first visit is set in a local fallback until the font file has come
 * (styles.css), so a name set as text was in Arial on every first visit's first screen.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { drawWordmark, wordmarkBoxModule, wordmarkColours, wordmarkSvg } from './wordmark-path';

const srcDir = join(import.meta.dirname, '../src');
const wordmark = await drawWordmark(readFileSync(join(srcDir, 'fonts/bricolage-grotesque.woff2')));
const colours = wordmarkColours(readFileSync(join(srcDir, 'styles.css'), 'utf8'));
writeFileSync(join(srcDir, 'components/wordmark.svg'), wordmarkSvg(wordmark, colours));
writeFileSync(join(srcDir, 'components/wordmark-box.ts'), wordmarkBoxModule(wordmark));
console.log(
  `wordmark.svg: ${wordmark.width} × ${wordmark.height} units, ${wordmark.d.length} characters of path data`,
);
