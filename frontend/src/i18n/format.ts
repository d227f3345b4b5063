import { INTL_LOCALE, type Locale } from '#contract/locales';

/** An amount of money in euro cents, so that sums are exact. */
export type Cents = number;
/** A calendar date, `2025-08-25`. */
export type IsoDate = `${number}-${number}-${number}`;
export type SizeUnit = 'liter' | 'kilogram' | 'gram';

/**
 * Every amount, date, size and percentage the page shows is written by one of these, in the page's
 * language: nl "€ 1,20", "25 aug. 2025"; en "€1.20", "25 Aug 2025".
 */
export interface Formatters {
  /** An exact amount: "€ 1,20", "€1.20". */
  euro(amount: Cents): string;
  /** A round amount, as a claim says it: "€ 1.000", "€1,000". */
  wholeEuros(amount: Cents): string;
  /**
   * A range of round amounts, the euro sign written once: "€ 20–30", "€20–30", with a word joiner (U+2060)
   * after the dash, so a line never breaks between "€20–" and "30".
   */
  wholeEuroRange(from: Cents, to: Cents): string;
  date(isoDate: IsoDate): string;
  /** From one day to another, what they share written once: "25–31 aug. 2025", "25–31 Aug 2025". */
  dateRange(from: IsoDate, until: IsoDate): string;
  size(amount: number, unit: SizeUnit): string;
  percent(wholePercent: number): string;
}

const EN_DASH = '–';
/** Invisible; forbids a line break on either side of it. */
const WORD_JOINER = '\u2060';

// Calendar days: read and shown in UTC, so they stay the same day in every time zone.
const dayOf = (isoDate: IsoDate) => {
  const [year = 0, month = 1, day = 1] = isoDate.split('-').map(Number);
  return Date.UTC(year, month - 1, day);
};

function createFormatters(locale: Locale): Formatters {
  const tag = INTL_LOCALE[locale];
  const euro = new Intl.NumberFormat(tag, { style: 'currency', currency: 'EUR' });
  const whole = { minimumFractionDigits: 0, maximumFractionDigits: 0 };
  const wholeEuros = new Intl.NumberFormat(tag, { style: 'currency', currency: 'EUR', ...whole });
  const wholeNumber = new Intl.NumberFormat(tag, whole);
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
      // A lone "l" after a 1 reads as "11": litres are written out ("1 liter", "1 litre").
      format = new Intl.NumberFormat(tag, {
        style: 'unit',
        unit,
        unitDisplay: unit === 'liter' ? 'long' : 'short',
      });
      sizes.set(unit, format);
    }
    return format;
  };

  /**
   * Dutch writes a shortened month with a full stop ("aug."), which recent Intl data leaves out and older
   * data keeps; adding it here makes the server's text and the browser's the same. "mei" is the whole word.
   * A dash between two bare day numbers is closed up ("25–31"), as both languages set it.
   */
  const joinDateParts = (parts: Intl.DateTimeFormatPart[]) =>
    parts
      .map(({ type, value }, index) => {
        if (type === 'month' && locale === 'nl' && !/\.$|^mei$/.test(value)) return `${value}.`;
        const between = [parts[index - 1]?.type, parts[index + 1]?.type].join();
        if (type === 'literal' && value.trim() === EN_DASH && between === 'day,day') return EN_DASH;
        return value;
      })
      .join('');

  return {
    euro: (amount) => euro.format(amount / 100),
    wholeEuros: (amount) => wholeEuros.format(amount / 100),
    wholeEuroRange: (from, to) => {
      const upper = wholeNumber.format(to / 100);
      return wholeEuros
        .format(to / 100)
        .replace(upper, `${wholeNumber.format(from / 100)}${EN_DASH}${WORD_JOINER}${upper}`);
    },
    date: (isoDate) => joinDateParts(date.formatToParts(dayOf(isoDate))),
    dateRange: (from, until) => joinDateParts(date.formatRangeToParts(dayOf(from), dayOf(until))),
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
