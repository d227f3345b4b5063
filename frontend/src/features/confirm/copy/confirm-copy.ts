import type { Locale } from '#contract/locales';
import { en } from './en';
import { nl } from './nl';

export const confirmCopy = { nl, en } satisfies Record<Locale, typeof en>;
