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

/** Every text of a copy tree as [path, text], functions called with sample arguments. */
const texts = (tree: Tree, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) => {
    const path = `${prefix}${key}`;
    if (value && typeof value === 'object') return texts(value as Tree, `${path}.`);
    return [[path, typeof value === 'function' ? value('X', 'Y') : value]];
  });

/** The `{name}` placeholders a text leaves for the page to fill in, in order. */
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);

// The keys, and which texts take arguments, are the type checker's: Dutch `satisfies` the English shape.
describe.each([
  ['messages', messages],
  ['privacy notice', privacyCopy],
  ['confirmation', confirmCopy],
  ['leave', leaveCopy],
  ['demo dialogs', dialogCopy],
  ['waitlist result pages', resultCopy],
] as const)('%s', (_name, dictionary) => {
  it('has no empty text, and the same {placeholders} in both languages', () => {
    const dutch = new Map(texts(dictionary.nl));
    for (const [path, text] of texts(dictionary.en)) {
      expect([text.trim(), dutch.get(path)?.trim()].every(Boolean), path).toBe(true);
      expect(placeholders(String(dutch.get(path))), path).toEqual(placeholders(text));
    }
  });

  it('writes English with the straight apostrophe of SPEC’s "You\'ve", and Dutch "e‑mail" unbreakable', () => {
    for (const [path, text] of texts(dictionary.en)) expect(text, path).not.toContain('’');
    // A non-breaking hyphen (U+2011): "e-" never ends a line.
    for (const [path, text] of texts(dictionary.nl)) expect(text, path).not.toMatch(/e-mail/i);
  });
});

describe('messages', () => {
  it('uses the exact English wording of the specification', () => {
    const { signup, notFound, demo, sources, common } = messages.en;
    expect(signup.notices).toEqual({
      successTitle: 'Success! 🎉',
      successBody: "You've been added to the waitlist!",
      duplicateTitle: 'Already registered',
      duplicateBody: 'This email is already on the waitlist!',
      errorTitle: 'Error',
      errorBody: 'Something went wrong. Please try again.',
    });
    expect(signup.note).toBe(
      "We'll email you to confirm your signup, and let you know when Mandje is ready. We only use your address for that.",
    );
    expect(notFound).toEqual({ code: '404', title: 'Oops! Page not found', homeLink: 'Return to Home' });
    // SPEC's "Return to Home" is the not-found page's; every other way home says it in plain words.
    expect(common.backToHome).toBe('Back to home');
    expect(demo.alternative.title('Albert Heijn')).toBe('Also found at Albert Heijn');
    expect(demo.notFoundTitle).toBe('Not found');
    expect(dialogCopy.en.close).toBe('Close');
    expect(sources.note).toBe('Prices are updated weekly from all major Dutch supermarkets.');
  });

  it.each([
    // As Intl writes amounts in each language: a no-break space after the euro sign in Dutch.
    ['nl', '€\u00a020–\u206030', '€\u00a01.000', 'ruim 100 testers', 'gesloten test'],
    ['en', '€20–\u206030', '€1,000', '100+ testers are already saving', 'closed test'],
  ] as const)(
    'states the product’s claims in %s with the formatter’s amounts, and the testers’ closed test',
    (locale, perWeek, perYear, testers, closedTest) => {
      const { hero, why, meta, finalCta, demo, signup } = messages[locale];
      const claims = savingsClaims(formattersFor(locale));
      expect(claims).toEqual({ weekly: perWeek, yearly: perYear });
      for (const claim of [hero.subtitle, why.points.money.body])
        expect(fillInText(claim, claims)).toMatch(new RegExp(`${perWeek}.*${perYear}`));
      expect(fillInText(meta.homeDescription, claims)).toContain(perWeek);
      // No amount written by hand: every one goes through the formatter.
      expect(JSON.stringify(messages[locale])).not.toMatch(/€ ?\d|\d ?€/);
      // "100+ testers are already saving" is SPEC's English; Dutch says it in words.
      expect(hero.testers).toContain(testers);
      for (const line of [hero.testers, finalCta.body, demo.tryFirst.loading])
        expect(line.toLowerCase()).toContain(closedTest);
      // One label for joining: on the hero, the final call and the form.
      expect(new Set([hero.joinWaitlist, finalCta.button, signup.submit]).size).toBe(1);
    },
  );
});
