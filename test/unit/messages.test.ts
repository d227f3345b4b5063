import { describe, expect, it } from 'vitest';
import { savingsClaims } from '../../frontend/src/config/savings-claims';
import { confirmCopy } from '../../frontend/src/features/confirm/copy/confirm-copy';
import { dialogCopy } from '../../frontend/src/features/demo/copy/dialog-copy';
import { leaveCopy } from '../../frontend/src/features/leave/copy/leave-copy';
import { privacyCopy } from '../../frontend/src/features/privacy/copy/privacy-copy';
import { resultCopy } from '../../frontend/src/features/waitlist/copy/result-copy';
import { fillInText } from '../../frontend/src/i18n/fill-in';
import { formattersFor } from '../../frontend/src/i18n/format';
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

/** The `{name}` placeholders a message leaves for the page to fill in, in order. */
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);

/** Every copy dictionary: the page's messages, and those loaded only on their own pages. */
const DICTIONARIES = [
  ['messages', messages],
  ['privacy notice', privacyCopy],
  ['confirmation', confirmCopy],
  ['leave', leaveCopy],
  ['demo dialogs', dialogCopy],
  ['waitlist result pages', resultCopy],
] as const;

// The keys and which messages take arguments are the type checker's: Dutch `satisfies` the English shape.
describe.each(DICTIONARIES)('%s', (_name, dictionary) => {
  it('has no empty text in either language', () => {
    for (const locale of ['nl', 'en'] as const) {
      for (const [path, value] of leaves(dictionary[locale])) {
        const text = typeof value === 'function' ? value('X', 'Y') : value;
        expect(typeof text === 'string' && text.trim().length > 0, `${locale}: ${path}`).toBe(true);
      }
    }
  });

  it('uses the same {placeholders} in both languages', () => {
    const dutch = new Map(leaves(dictionary.nl));
    for (const [path, value] of leaves(dictionary.en)) {
      if (typeof value !== 'string') continue;
      expect(placeholders(String(dutch.get(path))), path).toEqual(placeholders(value));
    }
  });
});

describe('messages', () => {
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
    // SPEC's "Return to Home" is the not-found page's; every other way home says it in plain words.
    expect(messages.en.common.backToHome).toBe('Back to home');
    expect(demo.alternative.title('Albert Heijn')).toBe('Also found at Albert Heijn');
    expect(demo.notFoundTitle).toBe('Not found');
    expect(dialogCopy.en.close).toBe('Close');
  });

  it('keeps the note of the specification, adds the confirmation, and links the privacy notice', () => {
    expect(messages.en.signup.note).toBe(
      "We'll email you to confirm your signup, and let you know when Mandje is ready. We only use your address for that.",
    );
    for (const locale of ['nl', 'en'] as const) {
      expect(placeholders(messages[locale].signup.privacySentence), locale).toEqual(['days', 'link']);
    }
  });

  it('writes Dutch with an example address in Dutch', () => {
    expect(messages.nl.signup.exampleEmail).toBe('naam@voorbeeld.nl');
    expect(messages.nl.signup.errors.malformed(messages.nl.signup.exampleEmail)).toContain(
      'naam@voorbeeld.nl',
    );
  });

  it.each([
    // As Intl writes amounts in each language: a no-break space after the euro sign in Dutch.
    ['nl', '€\u00a020–\u206030', '€\u00a01.000'],
    ['en', '€20–\u206030', '€1,000'],
  ] as const)(
    'states the claims of the product in %s, amounts filled in by the page’s formatter',
    (locale, perWeek, perYear) => {
      const { hero, why, meta } = messages[locale];
      const claims = savingsClaims(formattersFor(locale));
      expect(claims).toEqual({ weekly: perWeek, yearly: perYear });
      for (const claim of [hero.subtitle, why.points.money.body]) {
        expect(fillInText(claim, claims)).toContain(perWeek);
        expect(fillInText(claim, claims)).toContain(perYear);
      }
      expect(fillInText(meta.homeDescription, claims)).toContain(perWeek);
      // "100+ testers are already saving" is SPEC's English; Dutch says it in words.
      expect(hero.testers).toContain(
        locale === 'nl' ? 'ruim 100 testers' : '100+ testers are already saving',
      );
      // No amount written by hand: every one goes through the formatter.
      expect(JSON.stringify(messages[locale])).not.toMatch(/€ ?\d|\d ?€/);
    },
  );

  it.each([
    ['nl', 'gesloten test'],
    ['en', 'closed test'],
  ] as const)(
    'in %s, says the testers save in a closed test wherever it speaks of them or of not being live',
    (locale, closedTest) => {
      const { hero, finalCta, demo } = messages[locale];
      for (const line of [hero.testers, finalCta.body, demo.tryFirst.loading])
        expect(line.toLowerCase()).toContain(closedTest);
    },
  );

  it('states the weekly price update in the exact words of the specification', () => {
    expect(messages.en.sources.note).toBe('Prices are updated weekly from all major Dutch supermarkets.');
  });
});

/** Every string of a copy tree, functions called with sample arguments. */
const texts = (tree: Tree) =>
  leaves(tree).map(([path, value]) => [path, typeof value === 'function' ? value('X', 'Y') : value] as const);

describe('typography, in every dictionary', () => {
  it.each(DICTIONARIES)(
    '%s: English uses one apostrophe, the straight one of SPEC\'s "You\'ve"',
    (_name, dictionary) => {
      for (const [path, text] of texts(dictionary.en)) expect(text, path).not.toContain('’');
    },
  );

  it.each(DICTIONARIES)(
    '%s: Dutch "e-mail" never breaks at its hyphen (a non-breaking one, U+2011)',
    (_name, dictionary) => {
      for (const [path, text] of texts(dictionary.nl)) expect(String(text), path).not.toMatch(/e-mail/i);
    },
  );

  it('one label for joining in each language, on the hero, the final call and the form', () => {
    for (const locale of ['nl', 'en'] as const) {
      const { hero, finalCta, signup } = messages[locale];
      expect(new Set([hero.joinWaitlist, finalCta.button, signup.submit]).size, locale).toBe(1);
    }
  });
});
