import type { Locale } from '#contract/locales';
import { en, type LeaveCopy } from './en';
import { nl } from './nl';

export type { LeaveCopy };

export const leaveCopy = { nl, en } satisfies Record<Locale, LeaveCopy>;
