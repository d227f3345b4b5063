/**
 * `npm run font`: writes the page's typeface, Bricolage Grotesque, from its npm package
 * (@fontsource-variable/bricolage-grotesque) to frontend/src/fonts/, subset to the characters the pages
 * can show, with its licence beside it, and the @font-face rules for it and for its metric-matched
 * fallback (frontend/src/fonts/font-faces.css, imported by styles.css). Run it again after changing the
 * package's version or when the copy uses a character the font file lacks, and commit what it writes.
 *
 * The fallback's figures are measured, not guessed: Chromium lays out the page's own copy in the web font
 * and in the local fallback, and the fallback is scaled (size-adjust) so both run the same length, and
 * given the web font's ascent, descent and line gap, so a line is as tall in either. Headings are set in
 * the face's middle weights and text in its regular: each has its own fallback face, measured at its weight.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium } from '@playwright/test';
import subsetFont from 'subset-font';
import { messages } from '../src/i18n/messages';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';

const PACKAGE = '@fontsource-variable/bricolage-grotesque';
/** The package's Latin file with all three axes (optical size, width, weight). */
const SOURCE_FILE = 'files/bricolage-grotesque-latin-standard-normal.woff2';
const FAMILY = 'Bricolage Grotesque';
const FALLBACK_FAMILY = `${FAMILY} Fallback`;
/** The same file under a name of its own, for the parts of a page set in it after the first paint. */
const LATE_FAMILY = `${FAMILY} Swap`;
const OUTPUT_NAME = 'bricolage-grotesque.woff2';

/**
 * The file keeps the weight axis over the weights the page uses, and pins the other two: width at normal,
 * which the page never changes, and optical size at 18, where text at 16 px still reads openly and headings
 * keep the face's ink traps. Keeping the optical-size axis whole would double the file (about 50 KB).
 */
const AXES = { wdth: 100, opsz: 18, wght: { min: 400, max: 700 } } as const;
const WEIGHTS = '400 700';
/**
 * The fallback's faces, one per band of weights, each scaled to match the web font at the weight the page
 * sets in that band: running text (400, and 500), labels and headings (600, --text-heading and
 * --text-title in styles.css), the display size (650) and bold (700, also what 800 comes to, as the file
 * stops at 700). A bold local face stands in from 550 up.
 */
const FALLBACK_BANDS = [
  { weights: '100 549', matchedAt: 400, local: 'regular' },
  { weights: '550 624', matchedAt: 600, local: 'bold' },
  { weights: '625 674', matchedAt: 650, local: 'bold' },
  { weights: '675 900', matchedAt: 700, local: 'bold' },
] as const;
/** Local faces metrically like Arial, on Windows and macOS (Arial, Helvetica) and Linux (Liberation Sans, Arimo). */
const FALLBACK_FACES = {
  regular: ['Arial', 'Helvetica', 'Liberation Sans', 'Arimo'],
  bold: ['Arial Bold', 'Arial-BoldMT', 'Helvetica Bold', 'Liberation Sans Bold', 'Arimo Bold'],
};

const repoRoot = join(import.meta.dirname, '../..');
const fontsDir = join(repoRoot, 'frontend/src/fonts');
const packageDir = dirname(createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`));

/**
 * What the pages show: printable ASCII, every other character the page's source holds (the copy in both
 * languages, the demo's data), the typographic punctuation and the accented letters of Dutch words (for
 * what a visitor types into the demo). The font keeps those it has; a character it lacks is drawn by the
 * fallback, glyph by glyph.
 */
function characters(): string {
  const set = new Set<string>();
  const addRange = (from: number, to: number) => {
    for (let code = from; code <= to; code += 1) set.add(String.fromCodePoint(code));
  };
  addRange(0x20, 0x7e);
  for (const character of '‘’‚“”„–—…•·€×\u00a0áàâäéèêëíìîïóòôöúùûüçñÁÀÄÉÈËÍÏÓÖÚÜÇ') set.add(character);
  const sourceFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
    });
  for (const file of [
    ...sourceFiles(join(repoRoot, 'frontend/src')),
    ...sourceFiles(join(repoRoot, 'contract')),
  ])
    for (const character of readFileSync(file, 'utf8')) if (character >= ' ') set.add(character);
  return [...set].sort().join('');
}

/** The page's own copy in both languages, for measuring how long a line runs in each font. */
function sampleText(): string {
  const strings: string[] = [];
  const collect = (value: unknown) => {
    if (typeof value === 'string') strings.push(value);
    else if (value && typeof value === 'object') for (const each of Object.values(value)) collect(each);
  };
  collect(messages);
  return strings.join(' ');
}

interface FallbackFigures {
  sizeAdjust: number;
  ascent: number;
  descent: number;
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(2)}%`;

async function measureFallback(font: Buffer): Promise<FallbackFigures[]> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', ...CHROMIUM_FLAGS],
  });
  try {
    const page = await browser.newPage();
    // The functions below are compiled by tsx, which names them through a helper the page lacks.
    await page.evaluate('window.__name = (fn) => fn');
    const fontUrl = `data:font/woff2;base64,${font.toString('base64')}`;
    return await page.evaluate(
      async ({ fontUrl, family, sample, bands, fallbacks }) => {
        const face = new FontFace(family, `url(${fontUrl})`, { weight: '100 900' });
        document.fonts.add(await face.load());
        /** The sample's length on one line, in ems, at a weight and at the size it is set in (so its optical size). */
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
        fontUrl,
        family: FAMILY,
        sample: sampleText(),
        bands: FALLBACK_BANDS.map(({ matchedAt, local }) => ({ matchedAt, local })),
        // What the local() faces below find on this machine: Chromium resolves Arial to Liberation Sans on Linux.
        fallbacks: 'Arial, "Liberation Sans", Arimo',
      },
    );
  } finally {
    await browser.close();
  }
}

function fontFaces(fallback: FallbackFigures[]): string {
  const faces = FALLBACK_BANDS.map(({ weights, local }, index) => {
    const figures = fallback[index] as FallbackFigures;
    return [
      '@font-face {',
      `  font-family: "${FALLBACK_FAMILY}";`,
      `  font-weight: ${weights};`,
      `  src: ${FALLBACK_FACES[local].map((name) => `local("${name}")`).join(', ')};`,
      `  size-adjust: ${percent(figures.sizeAdjust)};`,
      `  ascent-override: ${percent(figures.ascent)};`,
      `  descent-override: ${percent(figures.descent)};`,
      '  line-gap-override: 0%;',
      '}',
    ].join('\n');
  });
  // One file, two faces (styles.css says why): the page's from its first paint, used only if the file is
  // there by then, and the parts set in it after the first paint, used as soon as it comes.
  const face = (family: string, display: 'optional' | 'swap') =>
    [
      '@font-face {',
      `  font-family: "${family}";`,
      '  font-style: normal;',
      `  font-weight: ${WEIGHTS};`,
      `  font-display: ${display};`,
      `  src: url("./${OUTPUT_NAME}") format("woff2");`,
      '}',
    ].join('\n');
  return `/* Written by \`npm run font\` (frontend/scripts/subset-font.ts): edit the script, not this file. */
${face(FAMILY, 'optional')}

${face(LATE_FAMILY, 'swap')}

${faces.join('\n\n')}
`;
}

const source = readFileSync(join(packageDir, SOURCE_FILE));
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
const version = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
console.log(
  `${OUTPUT_NAME}: ${(subset.length / 1024).toFixed(1)} KB from ${PACKAGE}@${version} (${(source.length / 1024).toFixed(1)} KB)`,
);
console.log(
  `fallback size-adjust by weight band: ${fallback.map((figures) => percent(figures.sizeAdjust)).join(', ')}`,
);
