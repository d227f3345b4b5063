import { expect, it } from 'vitest';
import { initialLocale } from '../../frontend/src/i18n/language-context';

it.each([
  ['/', undefined, 'nl', 'a first visit to / in Dutch'],
  ['/', 'en', 'en', 'a visitor who chose English back in English'],
  ['/en/', 'nl', 'en', 'an English address in English, whatever was chosen before'],
  ['/en/no-such-page', undefined, 'en', 'an unknown English address in English'],
  ['/no-such-page', 'en', 'en', 'an unknown Dutch-looking path in the remembered language'],
  ['/no-such-page', undefined, 'nl', 'an unknown Dutch-looking path in Dutch by default'],
] as const)('initialLocale(%j, %j) is %s: %s', (path, chosen, expected, _case) => {
  expect(initialLocale(path, chosen)).toBe(expected);
});
