// `npm run font`: Bricolage Grotesque subset to the characters the pages can show, with its licence and
// font-faces.css, into frontend/src/fonts/; run it after a new package version or when the copy gains a
// character. The fallback is scaled so that Chromium lays out the page's copy in it at the same length.
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium } from '@playwright/test';
import subsetFont from 'subset-font';
import { messages } from '../src/i18n/messages';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';

const FAMILY = 'Bricolage Grotesque';
const FILE = 'bricolage-grotesque.woff2';
/** Optical size pinned at 18 (16 px text reads openly, headings keep their ink traps): the axis doubles the file. */
const AXES = { wdth: 100, opsz: 18, wght: { min: 400, max: 700 } } as const;
/** Local faces metrically like Arial, on Windows, macOS and Linux. */
const REGULAR = ['Arial', 'Helvetica', 'Liberation Sans', 'Arimo'];
const BOLD = ['Arial Bold', 'Arial-BoldMT', 'Helvetica Bold', 'Liberation Sans Bold', 'Arimo Bold'];
/** One fallback face per band of weights, matched at the weight the page sets in it (800 draws as 700). */
const BANDS = [
  { weights: '100 549', matchedAt: 400, bold: false },
  { weights: '550 624', matchedAt: 600, bold: true },
  { weights: '625 674', matchedAt: 650, bold: true },
  { weights: '675 900', matchedAt: 700, bold: true },
];

const repoRoot = join(import.meta.dirname, '../..');
const fontsDir = join(repoRoot, 'frontend/src/fonts');
const packageDir = dirname(
  createRequire(import.meta.url).resolve('@fontsource-variable/bricolage-grotesque/package.json'),
);

/** Printable ASCII, every character of the page's source, and what a visitor may type into the demo. */
function characters(): string {
  let text = String.fromCharCode(...Array.from({ length: 95 }, (_, index) => 0x20 + index));
  text += '‘’‚“”„–—…•·€×\u00a0áàâäéèêëíìîïóòôöúùûüçñÁÀÄÉÈËÍÏÓÖÚÜÇ';
  for (const dir of ['frontend/src', 'contract'])
    for (const name of readdirSync(join(repoRoot, dir), { recursive: true, encoding: 'utf8' }))
      if (/\.tsx?$/.test(name)) text += readFileSync(join(repoRoot, dir, name), 'utf8');
  return [...new Set(text)]
    .filter((character) => character >= ' ')
    .sort()
    .join('');
}

const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : value && typeof value === 'object'
      ? Object.values(value).flatMap(strings)
      : [];
const percent = (ratio: number) => `${(ratio * 100).toFixed(2)}%`;

async function measureFallback(font: Buffer) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', ...CHROMIUM_FLAGS],
  });
  try {
    const page = await browser.newPage();
    // The functions below are compiled by tsx, which names them through a helper the page lacks.
    await page.evaluate('window.__name = (fn) => fn');
    return await page.evaluate(
      async ({ fontUrl, family, sample, bands }) => {
        document.fonts.add(await new FontFace(family, `url(${fontUrl})`, { weight: '100 900' }).load());
        const width = (fontFamily: string, weight: number, size: number) => {
          const line = document.createElement('span');
          line.style.cssText = `font: ${weight} ${size}px ${fontFamily}; white-space: nowrap; position: absolute`;
          line.textContent = sample;
          document.body.append(line);
          const measured = line.getBoundingClientRect().width / size;
          line.remove();
          return measured;
        };
        const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
        context.font = `100px "${family}"`;
        const { fontBoundingBoxAscent: ascent, fontBoundingBoxDescent: descent } = context.measureText('x');
        // What the local() faces find on this machine: Chromium resolves Arial to Liberation Sans on Linux.
        const fallbacks = 'Arial, "Liberation Sans", Arimo';
        return bands.map(({ matchedAt, bold }) => {
          const size = matchedAt >= 600 ? 40 : 16;
          const sizeAdjust = width(`"${family}"`, matchedAt, size) / width(fallbacks, bold ? 700 : 400, size);
          return { sizeAdjust, ascent: ascent / 100 / sizeAdjust, descent: descent / 100 / sizeAdjust };
        });
      },
      {
        fontUrl: `data:font/woff2;base64,${font.toString('base64')}`,
        family: FAMILY,
        sample: strings(messages).join(' '),
        bands: BANDS,
      },
    );
  } finally {
    await browser.close();
  }
}

const fontFace = (...declarations: string[]) =>
  ['@font-face {', ...declarations.map((declaration) => `  ${declaration};`), '}'].join('\n');

// One file, two faces, the second for what is set in it after the first paint (styles.css says why).
const face = (family: string, display: string) =>
  fontFace(
    `font-family: "${family}"`,
    'font-style: normal',
    `font-weight: ${AXES.wght.min} ${AXES.wght.max}`,
    `font-display: ${display}`,
    `src: url("./${FILE}") format("woff2")`,
  );

const source = readFileSync(join(packageDir, 'files/bricolage-grotesque-latin-standard-normal.woff2'));
// Copyright, licence description and licence URL stay in the file, as the licence asks.
const subset = await subsetFont(source, characters(), {
  targetFormat: 'woff2',
  variationAxes: AXES,
  preserveNameIds: [0, 13, 14],
});
writeFileSync(join(fontsDir, FILE), subset);
copyFileSync(join(packageDir, 'LICENSE'), join(fontsDir, 'OFL.txt'));
const fallback = await measureFallback(subset);
const fallbackFaces = BANDS.map(({ weights, bold }, index) => {
  const { sizeAdjust, ascent, descent } = fallback[index] as (typeof fallback)[number];
  return fontFace(
    `font-family: "${FAMILY} Fallback"`,
    `font-weight: ${weights}`,
    `src: ${(bold ? BOLD : REGULAR).map((name) => `local("${name}")`).join(', ')}`,
    `size-adjust: ${percent(sizeAdjust)}`,
    `ascent-override: ${percent(ascent)}`,
    `descent-override: ${percent(descent)}`,
    'line-gap-override: 0%',
  );
});
const faces = [face(FAMILY, 'optional'), face(`${FAMILY} Swap`, 'swap'), ...fallbackFaces];
const header =
  '/* Written by `npm run font` (frontend/scripts/subset-font.ts): edit the script, not this file. */';
writeFileSync(join(fontsDir, 'font-faces.css'), `${header}\n${faces.join('\n\n')}\n`);
console.log(
  `${FILE}: ${(subset.length / 1024).toFixed(1)} KB, size-adjust by band: ${fallback.map((f) => percent(f.sizeAdjust)).join(', ')}`,
);
