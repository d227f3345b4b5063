import type { Locale } from '#contract/locales';
import { type ConfirmCopy, en } from './en';
import { nl } from './nl';

export type { ConfirmCopy };

export const confirmCopy = { nl, en } satisfies Record<Locale, ConfirmCopy>;
