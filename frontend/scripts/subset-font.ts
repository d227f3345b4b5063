// `npm run font`: Bricolage Grotesque subset to the characters the pages can show, with its licence and
// font-faces.css, into frontend/src/fonts/; run it after a new package version or when the copy gains a
// character. The fallback is scaled so that Chromium lays out the page's copy in it at the same length.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium } from '@playwright/test';
import subsetFont from 'subset-font';
import { messages } from '../src/i18n/messages';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';

const PACKAGE = '@fontsource-variable/bricolage-grotesque';
const FAMILY = 'Bricolage Grotesque';
const OUTPUT_NAME = 'bricolage-grotesque.woff2';

/** Optical size pinned at 18 (16 px text reads openly, headings keep their ink traps): the axis doubles the file. */
const AXES = { wdth: 100, opsz: 18, wght: { min: 400, max: 700 } } as const;
/** One fallback face per band of weights, matched at the weight the page sets in it (800 draws as 700). */
const FALLBACK_BANDS = [
  { weights: '100 549', matchedAt: 400, local: 'regular' },
  { weights: '550 624', matchedAt: 600, local: 'bold' },
  { weights: '625 674', matchedAt: 650, local: 'bold' },
  { weights: '675 900', matchedAt: 700, local: 'bold' },
] as const;
/** Local faces metrically like Arial, on Windows, macOS and Linux. */
const FALLBACK_FACES = {
  regular: ['Arial', 'Helvetica', 'Liberation Sans', 'Arimo'],
  bold: ['Arial Bold', 'Arial-BoldMT', 'Helvetica Bold', 'Liberation Sans Bold', 'Arimo Bold'],
};

const repoRoot = join(import.meta.dirname, '../..');
const fontsDir = join(repoRoot, 'frontend/src/fonts');
const packageDir = dirname(createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`));

/** Printable ASCII, every character of the page's source, and what a visitor may type into the demo. */
function characters(): string {
  const set = new Set<string>();
  for (let code = 0x20; code <= 0x7e; code += 1) set.add(String.fromCodePoint(code));
  for (const character of '‘’‚“”„–—…•·€×\u00a0áàâäéèêëíìîïóòôöúùûüçñÁÀÄÉÈËÍÏÓÖÚÜÇ') set.add(character);
  for (const dir of ['frontend/src', 'contract'])
    for (const name of readdirSync(join(repoRoot, dir), { recursive: true, encoding: 'utf8' }))
      if (/\.tsx?$/.test(name))
        for (const character of readFileSync(join(repoRoot, dir, name), 'utf8'))
          if (character >= ' ') set.add(character);
  return [...set].sort().join('');
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
      async ({ fontUrl, family, sample, bands, fallbacks }) => {
        const face = new FontFace(family, `url(${fontUrl})`, { weight: '100 900' });
        document.fonts.add(await face.load());
        const width = (fontFamily: string, weight: number, size: number) => {
          const line = document.createElement('span');
          line.style.cssText = `font: ${weight} ${size}px ${fontFamily}; white-space: nowrap; position: absolute`;
          line.textContent = sample;
          document.body.append(line);
          const measured = line.getBoundingClientRect().width / size;
          line.remove();
          return measured;
        };
        const context = document.createElement('canvas').getContext('2d');
        if (!context) throw new Error('no canvas');
        context.font = `100px "${family}"`;
        const { fontBoundingBoxAscent: ascent, fontBoundingBoxDescent: descent } = context.measureText('x');
        return bands.map(({ matchedAt, local }) => {
          const size = matchedAt >= 600 ? 40 : 16;
          const fallbackWeight = local === 'bold' ? 700 : 400;
          const sizeAdjust = width(`"${family}"`, matchedAt, size) / width(fallbacks, fallbackWeight, size);
          return { sizeAdjust, ascent: ascent / 100 / sizeAdjust, descent: descent / 100 / sizeAdjust };
        });
      },
      {
        fontUrl: `data:font/woff2;base64,${font.toString('base64')}`,
        family: FAMILY,
        sample: strings(messages).join(' '),
        bands: FALLBACK_BANDS,
        // What the local() faces below find on this machine: Chromium resolves Arial to Liberation Sans on Linux.
        fallbacks: 'Arial, "Liberation Sans", Arimo',
      },
    );
  } finally {
    await browser.close();
  }
}

const fontFace = (...declarations: string[]) =>
  ['@font-face {', ...declarations.map((declaration) => `  ${declaration};`), '}'].join('\n');

function fontFaces(fallback: Awaited<ReturnType<typeof measureFallback>>): string {
  const faces = FALLBACK_BANDS.map(({ weights, local }, index) => {
    const figures = fallback[index] as (typeof fallback)[number];
    return fontFace(
      `font-family: "${FAMILY} Fallback"`,
      `font-weight: ${weights}`,
      `src: ${FALLBACK_FACES[local].map((name) => `local("${name}")`).join(', ')}`,
      `size-adjust: ${percent(figures.sizeAdjust)}`,
      `ascent-override: ${percent(figures.ascent)}`,
      `descent-override: ${percent(figures.descent)}`,
      'line-gap-override: 0%',
    );
  });
  // One file, two faces, the second for what is set in it after the first paint (styles.css says why).
  const face = (family: string, display: 'optional' | 'swap') =>
    fontFace(
      `font-family: "${family}"`,
      'font-style: normal',
      `font-weight: ${AXES.wght.min} ${AXES.wght.max}`,
      `font-display: ${display}`,
      `src: url("./${OUTPUT_NAME}") format("woff2")`,
    );
  return `/* Written by \`npm run font\` (frontend/scripts/subset-font.ts): edit the script, not this file. */
${face(FAMILY, 'optional')}

${face(`${FAMILY} Swap`, 'swap')}

${faces.join('\n\n')}
`;
}

// The package's Latin file with all three axes.
const source = readFileSync(join(packageDir, 'files/bricolage-grotesque-latin-standard-normal.woff2'));
const subset = await subsetFont(source, characters(), {
  targetFormat: 'woff2',
  variationAxes: AXES,
  // Copyright, licence description and licence URL stay in the file, as the licence asks.
  preserveNameIds: [0, 13, 14],
});
mkdirSync(fontsDir, { recursive: true });
writeFileSync(join(fontsDir, OUTPUT_NAME), subset);
copyFileSync(join(packageDir, 'LICENSE'), join(fontsDir, 'OFL.txt'));
const fallback = await measureFallback(subset);
writeFileSync(join(fontsDir, 'font-faces.css'), fontFaces(fallback));
console.log(
  `${OUTPUT_NAME}: ${(subset.length / 1024).toFixed(1)} KB, fallback size-adjust by band: ${fallback.map((figures) => percent(figures.sizeAdjust)).join(', ')}`,
);
