import { describe, expect, it, vi } from 'vitest';
import { type Formatters, formattersFor } from '../../frontend/src/i18n/format';

// Intl separates the euro sign with a no-break space; compare with ordinary spaces.
const plain = (text: string) => text.replace(/\u00a0|\u202f|\u2009/g, ' ');
const nl = formattersFor('nl');
const en = formattersFor('en');

describe('formattersFor', () => {
  it.each<[string, string, (format: Formatters) => string]>([
    ['€ 1,20', '€1.20', (format) => format.euro(120)],
    ['€ 18,75', '€18.75', (format) => format.euro(1875)],
    // Claims without cents, grouped per language.
    ['€ 1.000', '€1,000', (format) => format.wholeEuros(100_000)],
    // One euro sign, an en dash and a word joiner: the range never breaks between its amounts.
    ['€ 20–\u206030', '€20–\u206030', (format) => format.wholeEuroRange(2000, 3000)],
    ['€ 800–\u20601.200', '€800–\u20601,200', (format) => format.wholeEuroRange(80_000, 120_000)],
    // Dutch months shortened with a full stop ("mei" is the whole word).
    ['25 aug. 2025', '25 Aug 2025', (format) => format.date('2025-08-25')],
    ['1 mei 2025', '1 May 2025', (format) => format.date('2025-05-01')],
    // The demo's days have no year; a week is a closed-up day range with the month once.
    ['25 aug.', '25 Aug', (format) => format.dayMonth('2025-08-25')],
    ['25–31 aug.', '25–31 Aug', (format) => format.dayMonthRange('2025-08-25', '2025-08-31')],
    ['1,5 kg', '1.5 kg', (format) => format.size(1.5, 'kilogram')],
    ['800 g', '800 g', (format) => format.size(800, 'gram')],
    // A lone "l" after a 1 reads as "11": litres written out.
    ['1 liter', '1 litre', (format) => format.size(1, 'liter')],
    ['27%', '27%', (format) => format.percent(27)],
  ])('writes %s in Dutch, %s in English', (dutch, english, write) => {
    expect(plain(write(nl))).toBe(dutch);
    expect(plain(write(en))).toBe(english);
  });

  it('writes a week across two months with each month, spaced', () => {
    expect(plain(nl.dayMonthRange('2025-08-29', '2025-09-03'))).toBe('29 aug. – 3 sep.');
  });

  it.each(['Pacific/Kiritimati', 'Pacific/Pago_Pago'])('keeps a calendar date on its day in %s', (zone) => {
    vi.stubEnv('TZ', zone);
    expect(nl.date('2025-01-01')).toBe('1 jan. 2025');
    expect(en.date('2025-12-31')).toBe('31 Dec 2025');
  });

  it('reuses one set of formatters per language', () => {
    expect(formattersFor('nl')).toBe(nl);
    expect(nl).not.toBe(en);
  });
});
