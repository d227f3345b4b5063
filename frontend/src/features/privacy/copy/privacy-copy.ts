import type { Locale } from '#contract/locales';
import { en, type PrivacyCopy } from './en';
import { nl } from './nl';

export type { PrivacyCopy };

export const privacyCopy = { nl, en } satisfies Record<Locale, PrivacyCopy>;
