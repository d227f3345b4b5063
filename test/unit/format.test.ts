import { describe, expect, it } from 'vitest';
import { formattersFor } from '../../frontend/src/i18n/format';

// Intl separates the euro sign with a no-break space; compare with ordinary spaces.
const plain = (text: string) => text.replace(/\u00a0|\u202f|\u2009/g, ' ');

describe('formattersFor', () => {
  it('formats euro amounts the Dutch way in nl', () => {
    expect(plain(formattersFor('nl').euro(120))).toBe('€ 1,20');
    expect(plain(formattersFor('nl').euro(1875))).toBe('€ 18,75');
  });

  it('formats euro amounts the English way in en', () => {
    expect(formattersFor('en').euro(120)).toBe('€1.20');
    expect(formattersFor('en').euro(1250)).toBe('€12.50');
  });

  it('writes round amounts for claims without cents, grouped per language', () => {
    expect(plain(formattersFor('nl').wholeEuros(100_000))).toBe('€ 1.000');
    expect(formattersFor('en').wholeEuros(100_000)).toBe('€1,000');
  });

  it('writes a range of round amounts with one euro sign and an en dash', () => {
    // A word joiner after the dash: the range never breaks between its two amounts.
    expect(plain(formattersFor('nl').wholeEuroRange(2000, 3000))).toBe('€ 20–\u206030');
    expect(formattersFor('en').wholeEuroRange(2000, 3000)).toBe('€20–\u206030');
    expect(plain(formattersFor('nl').wholeEuroRange(80_000, 120_000))).toBe('€ 800–\u20601.200');
  });

  it('formats calendar dates per language, Dutch months shortened with a full stop', () => {
    expect(formattersFor('nl').date('2025-08-25')).toBe('25 aug. 2025');
    expect(formattersFor('nl').date('2025-05-01')).toBe('1 mei 2025');
    expect(formattersFor('en').date('2025-08-31')).toBe('31 Aug 2025');
  });

  it('keeps a calendar date on its day in any time zone', () => {
    const zone = process.env.TZ;
    try {
      for (const farZone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
        process.env.TZ = farZone;
        expect(formattersFor('nl').date('2025-01-01')).toBe('1 jan. 2025');
        expect(formattersFor('en').date('2025-12-31')).toBe('31 Dec 2025');
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('writes the demo’s days without a year, a week as a closed-up day range with the month once', () => {
    expect(formattersFor('nl').dayMonth('2025-08-25')).toBe('25 aug.');
    expect(formattersFor('en').dayMonth('2025-08-31')).toBe('31 Aug');
    expect(formattersFor('nl').dayMonthRange('2025-08-25', '2025-08-31')).toBe('25–31 aug.');
    expect(formattersFor('en').dayMonthRange('2025-08-25', '2025-08-31')).toBe('25–31 Aug');
    expect(plain(formattersFor('nl').dayMonthRange('2025-08-29', '2025-09-03'))).toBe('29 aug. – 3 sep.');
  });

  it('formats sizes and percentages with the language conventions, litres written out', () => {
    expect(formattersFor('nl').size(1.5, 'kilogram')).toBe('1,5 kg');
    expect(formattersFor('en').size(800, 'gram')).toBe('800 g');
    expect(formattersFor('nl').size(1, 'liter')).toBe('1 liter');
    expect(formattersFor('en').size(1, 'liter')).toBe('1 litre');
    expect(formattersFor('en').percent(27)).toBe('27%');
  });

  it('reuses one set of formatters per language', () => {
    expect(formattersFor('nl')).toBe(formattersFor('nl'));
    expect(formattersFor('nl')).not.toBe(formattersFor('en'));
  });
});
