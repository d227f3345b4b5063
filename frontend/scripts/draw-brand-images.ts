/**
 * Draws the PNG icons and the social preview of each language in frontend/public/ from favicon.svg, the
 * brand colours and the hero's title, with Chromium from apt. The previews are the page's own: its typeface
 * (the repo's font file, nothing fetched), the logo's wordmark (components/wordmark.svg) and the
 * mascot (public/mascot.svg). Run it again after changing the mark, the colours, the font, the mascot or the
 * title: `npx tsx frontend/scripts/draw-brand-images.ts`, then commit the PNGs (the build only copies them).
 * Each preview carries its alt text as its PNG description, which a test holds to the page's
 * (test/unit/head-assets.test.tsx).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { LOCALES, type Locale } from '#contract/locales';
import { WORDMARK } from '../src/components/wordmark-box';
import { savingsClaims } from '../src/config/savings-claims';
import { formattersFor } from '../src/i18n/format';
import { messages } from '../src/i18n/messages';
import { SOCIAL_PREVIEW } from '../src/i18n/social-preview';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';
import { withDescription } from './png-description';

const publicDir = join(import.meta.dirname, '../public');
const mark = readFileSync(join(publicDir, 'favicon.svg'), 'utf8').replace(/<title>.*?<\/title>/, '');
const mascot = `data:image/svg+xml;base64,${readFileSync(join(publicDir, 'mascot.svg')).toString('base64')}`;
/** The page's typeface, from the file the page serves (frontend/src/fonts/), under the name the CSS gives it. */
const FAMILY = 'Bricolage Grotesque';
const fontFace = `@font-face{font-family:"${FAMILY}";font-weight:400 700;src:url(data:font/woff2;base64,${readFileSync(
  join(import.meta.dirname, '../src/fonts/bricolage-grotesque.woff2'),
).toString('base64')}) format("woff2")}`;
/** Brand colours from frontend/src/styles.css. */
const BRAND_50 = '#f0fdf4';
const BRAND_700 = '#15803d';
const BRAND_900 = '#14532d';
/** The page's stone-700, for the line under the title. */
const STONE_700 = '#44403b';
/** The logo's drawn name (components/wordmark.svg), 120 px to the em, in the preview's brand green. */
const wordmark = readFileSync(join(import.meta.dirname, '../src/components/wordmark.svg'), 'utf8')
  .replace(/<title>.*?<\/title><style>.*?<\/style>/, '')
  .replace(
    '<svg ',
    `<svg width="${WORDMARK.width * 1.2}" height="${WORDMARK.height * 1.2}" fill="${BRAND_700}" `,
  );

/**
 * The mark centred on a square, at `markShare` of its side; `background` none keeps it transparent. The
 * basket fills rows 9 to 29 of the mark's 32, so it moves up 3/32 to sit in the middle.
 */
const icon = (background: string, markShare: number) => `
  <body style="margin:0;width:100vw;height:100vh;display:grid;place-items:center;background:${background}">
    <div style="width:${markShare * 100}vmin;height:${markShare * 100}vmin;translate:0 -9.375%">${mark}</div>
  </body>`;

/** The line under the title: the weekly saving and that the waitlist is free. */
const FOOTNOTE: Record<Locale, (weekly: string) => string> = {
  nl: (weekly) => `Zo’n ${weekly} per week besparen · Gratis wachtlijst`,
  en: (weekly) => `Save about ${weekly} a week · Free waitlist`,
};

/**
 * The preview: the logo (the mark and the wordmark, drawn 120 px to the em), the hero's title and the line
 * under it in the page's typeface, and the mascot beside them.
 */
const socialPreview = (locale: Locale) => `
  <style>${fontFace}</style>
  <body style="margin:0;width:${SOCIAL_PREVIEW.width}px;height:${SOCIAL_PREVIEW.height}px;display:flex;align-items:center;
    gap:40px;padding:0 72px 0 88px;box-sizing:border-box;background:${BRAND_50};color:${BRAND_900};
    font-family:'${FAMILY}'">
    <div style="flex:1;display:flex;flex-direction:column;gap:32px">
      <div style="display:flex;align-items:center;gap:24px">
        <div style="width:112px;height:112px">${mark}</div>
        ${wordmark}
      </div>
      <div style="font-size:56px;font-weight:650;line-height:1.1;letter-spacing:-0.025em;text-wrap:balance">
        ${messages[locale].hero.title}
      </div>
      <div style="font-size:28px;white-space:nowrap;color:${STONE_700}">${FOOTNOTE[locale](savingsClaims(formattersFor(locale)).weekly)}</div>
    </div>
    <img src="${mascot}" alt="" width="300" height="300">
  </body>`;

interface Image {
  file: string;
  size: readonly [number, number];
  html: string;
  transparent: boolean;
  /** An image with words: their language, and the words themselves, stored as its PNG description. */
  description?: { locale: Locale; text: string };
}

const IMAGES: Image[] = [
  { file: 'icon-192.png', size: [192, 192], html: icon('none', 0.9), transparent: true },
  { file: 'icon-512.png', size: [512, 512], html: icon('none', 0.9), transparent: true },
  // Maskable: the launcher crops to a circle or squircle, so the mark stays inside the central 80 %.
  {
    file: 'icon-maskable-512.png',
    size: [512, 512],
    html: icon(BRAND_50, 0.62),
    transparent: false,
  },
  { file: 'apple-touch-icon.png', size: [180, 180], html: icon(BRAND_50, 0.76), transparent: false },
  ...LOCALES.map((locale) => ({
    file: SOCIAL_PREVIEW.path[locale].slice(1),
    size: [SOCIAL_PREVIEW.width, SOCIAL_PREVIEW.height] as const,
    html: socialPreview(locale),
    transparent: false,
    description: { locale, text: SOCIAL_PREVIEW.alt(messages[locale].hero.title) },
  })),
];

const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: ['--headless', ...CHROMIUM_FLAGS],
});
try {
  for (const { file, size, html, transparent, description } of IMAGES) {
    const page = await browser.newPage({ viewport: { width: size[0], height: size[1] } });
    await page.setContent(`<!doctype html><html lang="${description?.locale ?? 'nl'}">${html}</html>`);
    await page.evaluate(() => document.fonts.ready);
    if (
      html.includes(FAMILY) &&
      !(await page.evaluate((family) => document.fonts.check(`56px "${family}"`), FAMILY))
    )
      throw new Error(`${file}: the page's typeface did not load`);
    const png = await page.screenshot({ omitBackground: transparent });
    await page.close();
    writeFileSync(
      join(publicDir, file),
      description === undefined ? png : withDescription(png, description.locale, description.text),
    );
    console.log(`wrote frontend/public/${file}`);
  }
} finally {
  await browser.close();
}
