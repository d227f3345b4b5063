import { describe, expect, it } from 'vitest';
import { initialLocale } from '../../frontend/src/i18n/language-preference';

describe('initialLocale', () => {
  it('starts a first visit to / in Dutch', () => {
    expect(initialLocale('/', undefined)).toBe('nl');
  });

  it('brings a visitor who chose English back in English', () => {
    expect(initialLocale('/', 'en')).toBe('en');
  });

  it('keeps an English address English, whatever was chosen before', () => {
    expect(initialLocale('/en/', 'nl')).toBe('en');
    expect(initialLocale('/en/no-such-page', undefined)).toBe('en');
  });

  it('shows an unknown Dutch-looking path in the remembered language', () => {
    expect(initialLocale('/no-such-page', 'en')).toBe('en');
    expect(initialLocale('/no-such-page', undefined)).toBe('nl');
  });
});
