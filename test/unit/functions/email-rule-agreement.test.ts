/**
 * The form and the API apply one rule: an address the page lets through is never refused by the API, one
 * the API refuses never leaves the page, and both store it under one key. The form's
 * request goes through fetch to the handler; the mocked table honours the put's condition.
 */

import { domainToASCII } from 'node:url';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { checkEmail, EMAIL_MAX_OCTETS, emailKey } from '#contract/email-address';
import { requestToJoin } from '../../../frontend/src/features/waitlist/components/signup-form';
import { dynamo, handler } from './handler-under-test';
import { httpApiEvent } from './http-api-event';

/** The keys in the mocked table; a put whose key is there fails its condition, as DynamoDB's does. */
const storedKeys = new Set<string>();

beforeEach(() => {
  storedKeys.clear();
  dynamo.on(PutCommand).callsFake(async (input: { Item: { email: string } }) => {
    if (storedKeys.has(input.Item.email))
      throw new ConditionalCheckFailedException({ message: 'exists', $metadata: {} });
    storedKeys.add(input.Item.email);
    return {};
  });
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

/** Characters one at a time, then pieces: invisible, look-alike, other scripts, decomposed, broken. */
const tricky = [
  ...'\u00ad\u200b\u200e\u202e\ufffd\u00a0\u0000ａ．üßİ @."',
  '%41',
  'xn--',
  'مثال',
  'a\u0301',
  '\ud800',
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
  fc.integer({ min: 1, max: 300 }).map((size) => (email: string) => `${'x'.repeat(size)}${email}`),
  position.map((at) => (email: string) => {
    const index = at % Math.max(email.length, 1);
    return email.slice(0, index) + email.slice(index + 1);
  }),
  fc.constant((email: string) => email.slice(0, email.lastIndexOf('.'))),
);
/** Addresses in other scripts and forms: accents (NFC and NFD), Unicode domains, fullwidth letters. */
const unicodeLetter = fc.constantFrom(...'aenosjxéüøåçñαβγжд'.split(''));
const unicodeAddress = fc
  .tuple(
    fc.string({ unit: unicodeLetter, minLength: 1, maxLength: 10 }),
    fc.constantFrom('bücher', 'münchen', 'example', 'café', 'mañana', 'xn--bcher-kva', 'пример', 'x'),
    fc.constantFrom('nl', 'de', 'com', 'рф', 'co.uk'),
  )
  .map(([local, domain, top]) => `${local}@${domain}.${top}`);

/** Ways of typing the same mailbox differently; none of them changes which mailbox it is. */
const fullwidth = (text: string) =>
  text.replace(/[!-~]/g, (character) => String.fromCodePoint((character.codePointAt(0) as number) + 0xfee0));
const splitAddress = (email: string) => {
  const at = email.lastIndexOf('@');
  return [email.slice(0, at), email.slice(at + 1)] as const;
};
const sameMailbox = fc.constantFrom<[string, (email: string) => string]>(
  ['in capitals', (email) => email.toUpperCase()],
  ['in NFD', (email) => email.normalize('NFD')],
  ['in NFC', (email) => email.normalize('NFC')],
  [
    'with its domain in punycode',
    (email) => {
      const [local, domain] = splitAddress(email);
      return `${local}@${domainToASCII(domain.normalize('NFC')) || domain}`;
    },
  ],
  ['with a trailing dot', (email) => (/[.．。]$/.test(email.trimEnd()) ? email : `${email.trimEnd()}.`)],
  [
    'with a fullwidth domain',
    (email) => {
      const [local, domain] = splitAddress(email);
      return `${local}@${fullwidth(domain)}`;
    },
  ],
  ['with spaces around it', (email) => ` \t${email}\u00a0`],
);

const typedAddress = fc.oneof(
  fc.emailAddress(),
  unicodeAddress,
  fc
    .tuple(fc.oneof(fc.emailAddress(), unicodeAddress), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([email, mutations]) => mutations.reduce((typed, mutate) => mutate(typed), email)),
  fc
    .tuple(fc.oneof(fc.emailAddress(), unicodeAddress), fc.array(sameMailbox, { minLength: 1, maxLength: 3 }))
    .map(([email, variants]) => variants.reduce((typed, [, retype]) => retype(typed), email)),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);

describe('the form and the API agree on addresses', () => {
  it('accept or refuse every generated address alike, and store it under the same key', async () => {
    let acceptedByBoth = 0;
    await fc.assert(
      fc.asyncProperty(typedAddress, async (typed) => {
        dynamo.resetHistory();
        storedKeys.clear();
        const throughForm = await submitThroughForm(typed);
        const putsFromForm = dynamo.commandCalls(PutCommand).length;
        storedKeys.clear();
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
          expect(fromForm).toBe(emailKey(typed));
        }
      }),
      { numRuns: 2_000 },
    );
    expect(acceptedByBoth).toBeGreaterThan(300);
  }, 60_000);

  it('lets through the longest address the rule allows, even in the script JSON spells longest', async () => {
    // The local part is ASCII, but a domain typed in fullwidth letters and dots costs three UTF-8 bytes a
    // character in the request body and one octet in its ASCII form: 64 + 1 + 189 octets, 254 in all.
    const fullwidth = (text: string) =>
      text.replace(/[a-z.]/g, (character) =>
        String.fromCodePoint((character.codePointAt(0) as number) + 0xfee0),
      );
    const longest = `${'a'.repeat(64)}@${fullwidth(`${'a'.repeat(62)}.${'a'.repeat(62)}.${'a'.repeat(60)}.nl`)}`;
    expect(emailKey(longest)?.length).toBe(EMAIL_MAX_OCTETS);
    expect(Buffer.byteLength(longest)).toBeGreaterThan(600);

    expect(await submitThroughForm(longest)).toBe('joined');
    storedKeys.clear();
    expect(await sendToApi(` ${longest} `)).toBe(true);
  });

  it.each([
    ['control characters, which JSON spells as six bytes each', `${'\u0001'.repeat(200)}@x.nl`],
    ['unpaired surrogates, which JSON also spells as six bytes each', `${'\ud800'.repeat(200)}@x.nl`],
    ['one octet too many', `${'a'.repeat(64)}@${`${'a'.repeat(62)}.`.repeat(3)}${'a'.repeat(10)}.nl`],
  ])('refuses in both places an address with %s', async (_case, typed) => {
    expect(await submitThroughForm(typed)).toBe('refused by the form');
    expect(await sendToApi(typed)).toBe(false);
    expect(dynamo.commandCalls(PutCommand)).toHaveLength(0);
  });
});
