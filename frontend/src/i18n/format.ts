import { INTL_LOCALE, type Locale } from '#contract/locales';

/** Euro cents, so that sums are exact. */
export type Cents = number;
export type IsoDate = `${number}-${number}-${number}`;
export type SizeUnit = 'liter' | 'kilogram' | 'gram';

/** Every amount, date, size and percentage the page shows: nl "€ 1,20", "25 aug. 2025"; en "€1.20". */
export type Formatters = ReturnType<typeof createFormatters>;

const EN_DASH = '–';

// Read and shown in UTC, so a day stays the same day in every time zone.
const dayOf = (isoDate: IsoDate) => {
  const [year = 0, month = 1, day = 1] = isoDate.split('-').map(Number);
  return Date.UTC(year, month - 1, day);
};

function createFormatters(locale: Locale) {
  const tag = INTL_LOCALE[locale];
  const euro = new Intl.NumberFormat(tag, { style: 'currency', currency: 'EUR' });
  const whole = { minimumFractionDigits: 0, maximumFractionDigits: 0 };
  const wholeEuros = new Intl.NumberFormat(tag, { style: 'currency', currency: 'EUR', ...whole });
  const wholeNumber = new Intl.NumberFormat(tag, whole);
  // The demo's example week has no year: a year long past would read as stale prices.
  const day = { day: 'numeric', month: 'short', timeZone: 'UTC' } as const;
  const dayMonth = new Intl.DateTimeFormat(tag, day);
  const date = new Intl.DateTimeFormat(tag, { ...day, year: 'numeric' });
  const percent = new Intl.NumberFormat(tag, { style: 'percent' });
  // A lone "l" after a 1 reads as "11": litres are written out ("1 liter", "1 litre").
  const sizeFormat = (unit: SizeUnit) =>
    new Intl.NumberFormat(tag, { style: 'unit', unit, unitDisplay: unit === 'liter' ? 'long' : 'short' });
  // Dutch "aug." has a full stop that recent Intl data leaves out and older data keeps: adding it makes the
  // server's text and the browser's the same ("mei" is the whole word). A dash between two days closes up.
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
    euro: (amount: Cents) => euro.format(amount / 100),
    wholeEuros: (amount: Cents) => wholeEuros.format(amount / 100),
    // "€ 20–30", with a word joiner after the dash so no line breaks inside it.
    wholeEuroRange: (from: Cents, to: Cents) => {
      const upper = wholeNumber.format(to / 100);
      return wholeEuros
        .format(to / 100)
        .replace(upper, `${wholeNumber.format(from / 100)}${EN_DASH}\u2060${upper}`);
    },
    date: (isoDate: IsoDate) => joinDateParts(date.formatToParts(dayOf(isoDate))),
    dayMonth: (isoDate: IsoDate) => joinDateParts(dayMonth.formatToParts(dayOf(isoDate))),
    dayMonthRange: (from: IsoDate, until: IsoDate) =>
      joinDateParts(dayMonth.formatRangeToParts(dayOf(from), dayOf(until))),
    size: (amount: number, unit: SizeUnit) => sizeFormat(unit).format(amount),
    percent: (wholePercent: number) => percent.format(wholePercent / 100),
  };
}

const formatters: Partial<Record<Locale, Formatters>> = {};

/** Intl formatters are costly to build: one set per language. */
export const formattersFor = (locale: Locale): Formatters =>
  (formatters[locale] ??= createFormatters(locale));
