import type { Locale } from '#contract/locales';
import { en, type Messages } from './messages/en';
import { nl } from './messages/nl';

export type { Messages };

export const messages = { nl, en } satisfies Record<Locale, Messages>;
