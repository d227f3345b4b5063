import { describe, expect, it } from 'vitest';
import { formattersFor } from '../../frontend/src/i18n/format';

// Intl separates the euro sign with a no-break space; compare with ordinary spaces.
const plain = (text: string) => text.replace(/\u00a0|\u202f/g, ' ');

describe('formattersFor', () => {
  it('formats euro amounts the Dutch way in nl', () => {
    expect(plain(formattersFor('nl').euro(120))).toBe('€ 1,20');
    expect(plain(formattersFor('nl').euro(1875))).toBe('€ 18,75');
  });

  it('formats euro amounts the English way in en', () => {
    expect(formattersFor('en').euro(120)).toBe('€1.20');
    expect(formattersFor('en').euro(1250)).toBe('€12.50');
  });

  it('formats calendar dates per language, on the same day in any time zone', () => {
    expect(formattersFor('nl').date('2025-08-25')).toMatch(/^25 aug\.? 2025$/);
    expect(formattersFor('en').date('2025-08-31')).toBe('31 Aug 2025');
  });

  it('formats sizes and percentages with the language conventions', () => {
    expect(formattersFor('nl').size(1.5, 'kilogram')).toBe('1,5 kg');
    expect(formattersFor('en').size(800, 'gram')).toBe('800 g');
    expect(formattersFor('en').percent(27)).toBe('27%');
  });

  it('reuses one set of formatters per language', () => {
    expect(formattersFor('nl')).toBe(formattersFor('nl'));
    expect(formattersFor('nl')).not.toBe(formattersFor('en'));
  });
});
