import { INTL_LOCALE, type Locale } from '#contract/locales';

/** An amount of money in euro cents, so that sums are exact. */
export type Cents = number;
/** A calendar date, `2025-08-25`. */
export type IsoDate = `${number}-${number}-${number}`;
export type SizeUnit = 'liter' | 'kilogram' | 'gram';

export interface Formatters {
  euro(amount: Cents): string;
  date(isoDate: IsoDate): string;
  size(amount: number, unit: SizeUnit): string;
  percent(wholePercent: number): string;
}

function createFormatters(locale: Locale): Formatters {
  const tag = INTL_LOCALE[locale];
  const euro = new Intl.NumberFormat(tag, { style: 'currency', currency: 'EUR' });
  // Demo dates are calendar days, so they are read and shown in UTC to stay the same day everywhere.
  const date = new Intl.DateTimeFormat(tag, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const percent = new Intl.NumberFormat(tag, { style: 'percent' });
  const sizes = new Map<SizeUnit, Intl.NumberFormat>();
  const sizeFormat = (unit: SizeUnit) => {
    let format = sizes.get(unit);
    if (!format) {
      format = new Intl.NumberFormat(tag, { style: 'unit', unit });
      sizes.set(unit, format);
    }
    return format;
  };

  return {
    euro: (amount) => euro.format(amount / 100),
    date: (isoDate) => {
      const [year = 0, month = 1, day = 1] = isoDate.split('-').map(Number);
      return date.format(Date.UTC(year, month - 1, day));
    },
    size: (amount, unit) => sizeFormat(unit).format(amount),
    percent: (wholePercent) => percent.format(wholePercent / 100),
  };
}

const formatters = new Map<Locale, Formatters>();

/** Intl formatters are costly to build, so each language's set is made once and reused. */
export function formattersFor(locale: Locale): Formatters {
  let set = formatters.get(locale);
  if (!set) {
    set = createFormatters(locale);
    formatters.set(locale, set);
  }
  return set;
}
