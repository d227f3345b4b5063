/**
 * Draws the PNG icons and the social preview of each language in frontend/public/ from favicon.svg, the
 * brand colours and the hero's title, with Chromium from apt and system fonts only. Run it again after
 * changing the mark, the colours or the title: `npx tsx frontend/scripts/draw-brand-images.ts`, then commit
 * the PNGs (the build only copies them). Each preview carries its alt text as its PNG description, which a
 * test holds to the page's (test/unit/head-assets.test.tsx).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { LOCALES, type Locale } from '#contract/locales';
import { savingsClaims } from '../src/config/savings-claims';
import { formattersFor } from '../src/i18n/format';
import { messages } from '../src/i18n/messages';
import { SOCIAL_PREVIEW } from '../src/i18n/social-preview';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';
import { withDescription } from './png-description';

const publicDir = join(import.meta.dirname, '../public');
const mark = readFileSync(join(publicDir, 'favicon.svg'), 'utf8').replace(/<title>.*?<\/title>/, '');
/** Brand colours from frontend/src/styles.css. */
const BRAND_50 = '#f0fdf4';
const BRAND_700 = '#15803d';
const BRAND_900 = '#14532d';

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

const socialPreview = (locale: Locale) => `
  <body style="margin:0;width:${SOCIAL_PREVIEW.width}px;height:${SOCIAL_PREVIEW.height}px;display:flex;flex-direction:column;justify-content:center;
    gap:28px;padding:0 96px;box-sizing:border-box;background:${BRAND_50};color:${BRAND_900};
    font-family:system-ui,sans-serif">
    <div style="display:flex;align-items:center;gap:28px">
      <div style="width:132px;height:132px">${mark}</div>
      <div style="font-size:112px;font-weight:800;letter-spacing:-3px;color:${BRAND_700}">Mandje</div>
    </div>
    <div style="font-size:56px;font-weight:700;line-height:1.15;max-width:960px">
      ${messages[locale].hero.title}
    </div>
    <div style="font-size:34px;color:#44403c">${FOOTNOTE[locale](savingsClaims(formattersFor(locale)).weekly)}</div>
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
