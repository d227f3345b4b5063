import type { Locale } from '#contract/locales';
import { en, type ResultCopy } from './en';
import { nl } from './nl';

export type { ResultCopy };

export const resultCopy = { nl, en } satisfies Record<Locale, ResultCopy>;
