import { describe, expect, it } from 'vitest';
import { messages } from '../../frontend/src/i18n/messages';

type Tree = { [key: string]: unknown };

/** Every leaf of a message tree as [path, value], functions called with sample arguments. */
function leaves(tree: Tree, prefix = ''): [string, unknown][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') return leaves(value as Tree, path);
    return [[path, value]];
  });
}

describe('messages', () => {
  it('gives Dutch and English exactly the same keys', () => {
    const nlKeys = leaves(messages.nl).map(([path]) => path);
    const enKeys = leaves(messages.en).map(([path]) => path);
    expect(nlKeys).toEqual(enKeys);
  });

  it('has no empty text in either language', () => {
    for (const locale of ['nl', 'en'] as const) {
      for (const [path, value] of leaves(messages[locale])) {
        const text = typeof value === 'function' ? value('X', 'Y') : value;
        expect(typeof text === 'string' && text.trim().length > 0, `${locale}: ${path}`).toBe(true);
      }
    }
  });

  it('gives interpolated messages the same type in both languages', () => {
    for (const [path, value] of leaves(messages.en)) {
      const dutch = leaves(messages.nl).find(([nlPath]) => nlPath === path)?.[1];
      expect(typeof dutch, path).toBe(typeof value);
    }
  });

  it('uses the exact English wording of the specification', () => {
    const { signup, notFound, demo } = messages.en;
    expect(signup.errors.empty).toBe('Please enter an email address');
    expect(signup.errors.malformed('name@example.com')).toBe(
      'Please enter a valid email address (e.g., name@example.com)',
    );
    expect(signup.notices).toEqual({
      successTitle: 'Success! 🎉',
      successBody: "You've been added to the waitlist!",
      duplicateTitle: 'Already registered',
      duplicateBody: 'This email is already on the waitlist!',
      errorTitle: 'Error',
      errorBody: 'Something went wrong. Please try again.',
    });
    expect(notFound).toEqual({ code: '404', title: 'Oops! Page not found', homeLink: 'Return to Home' });
    expect(demo.alternative.title('Albert Heijn')).toBe('Also found at Albert Heijn');
    expect(demo.notFoundTitle).toBe('Not found');
    expect(demo.basketDialog.close).toBe('Close');
  });

  it('writes Dutch with an example address in Dutch', () => {
    expect(messages.nl.signup.exampleEmail).toBe('naam@voorbeeld.nl');
    expect(messages.nl.signup.errors.malformed(messages.nl.signup.exampleEmail)).toContain(
      'naam@voorbeeld.nl',
    );
  });

  it('states the claims of the product in both languages', () => {
    for (const copy of [messages.nl, messages.en]) {
      const page = JSON.stringify(copy);
      expect(page).toMatch(/€20-30/);
      expect(page).toMatch(/€1[.,]000/);
      expect(page).toContain('100+');
    }
    expect(messages.en.sources.note).toBe('Prices are updated weekly from all major Dutch supermarkets.');
  });
});
