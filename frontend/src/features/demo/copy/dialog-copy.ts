import type { Locale } from '#contract/locales';
import { type DialogCopy, en } from './en';
import { nl } from './nl';

export type { DialogCopy };

export const dialogCopy = { nl, en } satisfies Record<Locale, DialogCopy>;
