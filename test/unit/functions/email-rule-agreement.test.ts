/**
 * The form and the API apply one rule, so an address the page lets through is never refused by the API,
 * and one the API would refuse never leaves the page. Both paths are taken as they really run: the form's
 * check and its request (requestToJoin, with fetch handing the request to the handler as API Gateway
 * would), and the API's handler with the DynamoDB client mocked.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { checkEmail, EMAIL_MAX_LENGTH } from '#contract/email-address';
import { requestToJoin } from '../../../frontend/src/features/waitlist/request-to-join';
import { dynamo, handler } from './handler-under-test';
import { httpApiEvent } from './http-api-event';

beforeEach(() => {
  dynamo.on(PutCommand).resolves({});
  // The page's fetch, answered by the handler from the event API Gateway would build of the request.
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    const result = await handler(
      httpApiEvent({ contentType: headers.get('content-type'), body: String(init.body) }),
    );
    return new Response(result.body, { status: result.statusCode });
  });
});

/** What the form does on submit: check the field's value, and send the checked address if it passes. */
async function submitThroughForm(
  typed: string,
): Promise<'refused by the form' | 'joined' | 'refused by the API'> {
  const check = checkEmail(typed);
  if (!check.ok) return 'refused by the form';
  const outcome = await requestToJoin({ email: check.email, language: 'nl', website: undefined });
  return outcome === 'joined' ? 'joined' : 'refused by the API';
}

/** What the API does with the address as typed, sent by any client. */
async function sendToApi(typed: string): Promise<boolean> {
  const result = await handler(httpApiEvent({ body: JSON.stringify({ email: typed, language: 'en' }) }));
  return result.statusCode === 201;
}

const tricky = [
  ' ',
  '\t',
  '\n',
  '\u00a0',
  '\u3000',
  '\ufeff',
  '\u200b',
  '\u200d',
  '\u202e',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  'ü',
  'ß',
  'İ',
  'مثال',
  '😀',
  'a\u0301',
  '\ud800',
  '@',
  '.',
  '"',
  '\\',
  ',',
];
const position = fc.nat();
const insertAt = (text: string, at: number, piece: string) => {
  const index = at % (text.length + 1);
  return text.slice(0, index) + piece + text.slice(index);
};
const mutation = fc.oneof(
  fc.tuple(position, fc.constantFrom(...tricky)).map(
    ([at, piece]) =>
      (email: string) =>
        insertAt(email, at, piece),
  ),
  fc.constant((email: string) => email.toUpperCase()),
  fc
    .constantFrom(' ', '\t', '\u00a0', '\ufeff', '\n')
    .map((space) => (email: string) => `${space}${email}${space}`),
  fc.integer({ min: 1, max: 300 }).map((size) => (email: string) => `${'x'.repeat(size)}${email}`),
  position.map((at) => (email: string) => {
    const index = at % Math.max(email.length, 1);
    return email.slice(0, index) + email.slice(index + 1);
  }),
  fc.constant((email: string) => email.replace('@', '')),
  fc.constant((email: string) => email.slice(0, email.lastIndexOf('.'))),
  fc.constant((email: string) => email.slice(email.indexOf('@'))),
  fc.constant((email: string) => email.slice(0, email.indexOf('@') + 1)),
);
const typedAddress = fc.oneof(
  fc.emailAddress(),
  fc
    .tuple(fc.emailAddress(), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([email, mutations]) => mutations.reduce((typed, mutate) => mutate(typed), email)),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);

describe('the form and the API agree on addresses', () => {
  it('accept or refuse every generated address alike, and a joined address is stored once', async () => {
    let acceptedByBoth = 0;
    await fc.assert(
      fc.asyncProperty(typedAddress, async (typed) => {
        dynamo.resetHistory();

        const throughForm = await submitThroughForm(typed);
        const putsFromForm = dynamo.commandCalls(PutCommand).length;
        const byApi = await sendToApi(typed);

        expect(throughForm).not.toBe('refused by the API');
        expect(throughForm === 'joined').toBe(byApi);
        expect(putsFromForm).toBe(throughForm === 'joined' ? 1 : 0);
        if (byApi) {
          acceptedByBoth++;
          const [fromForm, fromApi] = dynamo
            .commandCalls(PutCommand)
            .map((call) => call.args[0].input.Item?.email);
          expect(fromApi).toBe(fromForm);
          expect(fromForm).toBe(typed.trim().toLowerCase());
        }
      }),
      { numRuns: 3_000 },
    );
    expect(acceptedByBoth).toBeGreaterThan(500);
  });

  it('lets through the longest address the rule allows, even in the script JSON spells longest', async () => {
    // Three UTF-8 bytes per character: the most an allowed character costs in the request body.
    const longest = `${'€'.repeat(EMAIL_MAX_LENGTH - 5)}@€.nl`;
    expect(longest).toHaveLength(EMAIL_MAX_LENGTH);

    expect(await submitThroughForm(longest)).toBe('joined');
    expect(await sendToApi(` ${longest} `)).toBe(true);
  });

  it.each([
    ['control characters, which JSON spells as six bytes each', `${'\u0001'.repeat(200)}@x.nl`],
    ['unpaired surrogates, which JSON also spells as six bytes each', `${'\ud800'.repeat(200)}@x.nl`],
    ['a NUL', 'ann\u0000@example.nl'],
    ['one character too many', `${'a'.repeat(EMAIL_MAX_LENGTH - 4)}@x.nl`],
  ])('refuses in both places an address with %s', async (_case, typed) => {
    expect(await submitThroughForm(typed)).toBe('refused by the form');
    expect(await sendToApi(typed)).toBe(false);
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(0);
  });
});
