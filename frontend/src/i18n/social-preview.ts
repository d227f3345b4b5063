import { BRAND_NAME } from '#contract/brand';
import type { Locale } from '#contract/locales';

/**
 * The social preview of each language's pages (frontend/public/), drawn by
 * frontend/scripts/draw-brand-images.ts with that language's hero title, which its alt text repeats. Free of
 * the site's config, so the scripts and the browser tests read it as it is.
 */
export const SOCIAL_PREVIEW = {
  width: 1200,
  height: 630,
  path: { nl: '/social-preview.png', en: '/social-preview-en.png' } satisfies Record<Locale, string>,
  /** What the image says, in words: the brand and the hero's title. */
  alt: (heroTitle: string) => `${BRAND_NAME}: ${heroTitle}`,
} as const;
