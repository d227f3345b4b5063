/**
 * The form and the API apply one rule (#contract/email-address, its cases in test/unit/contract) even where
 * the request's bytes differ from the address's octets: the form's request goes through fetch to the handler.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { checkEmail, EMAIL_MAX_OCTETS, emailKey } from '#contract/email-address';
import { requestToJoin } from '../../../frontend/src/features/waitlist/components/signup-form';
import { dynamo, handler } from './handler-under-test';
import { httpApiEvent } from './http-api-event';

beforeEach(() => {
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

describe('the form and the API agree on addresses', () => {
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
