/**
 * Draws the wordmark, the brand's name in its typeface, as one SVG path from the page's own font file
 * (frontend/src/fonts/bricolage-grotesque.woff2), and writes it to frontend/src/components/: wordmark.svg,
 * the drawing, and wordmark-box.ts, its size, for the logo (components/brand-logo.tsx) and the social
 * previews (draw-brand-images.ts). `npm run font` runs it after writing the font file; run it alone with
 * `npx tsx frontend/scripts/draw-wordmark.ts`, and commit what it writes. How it draws: wordmark-path.ts.
 *
 * Why a drawing and not text: a first visit is set in a local fallback until the font file has come
 * (styles.css), so a name set as text was in Arial on every first visit's first screen.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { drawWordmark, wordmarkBoxModule, wordmarkSvg } from './wordmark-path';

const componentsDir = join(import.meta.dirname, '../src/components');
const wordmark = await drawWordmark(
  readFileSync(join(import.meta.dirname, '../src/fonts/bricolage-grotesque.woff2')),
);
writeFileSync(join(componentsDir, 'wordmark.svg'), wordmarkSvg(wordmark));
writeFileSync(join(componentsDir, 'wordmark-box.ts'), wordmarkBoxModule(wordmark));
console.log(
  `wordmark.svg: ${wordmark.width} × ${wordmark.height} units, ${wordmark.d.length} characters of path data`,
);
