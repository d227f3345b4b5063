import { BRAND_NAME } from '#contract/brand';
import type { Locale } from '#contract/locales';

// The preview images in frontend/public/; free of the site's config, so tests read it.
export const SOCIAL_PREVIEW = {
  width: 1200,
  height: 630,
  path: { nl: '/social-preview.png', en: '/social-preview-en.png' } satisfies Record<Locale, string>,
  alt: (heroTitle: string) => `${BRAND_NAME}: ${heroTitle}`,
} as const;
