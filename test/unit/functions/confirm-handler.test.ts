/**
 * `/api/confirm` as Lambda runs it, the table mocked: opening the link shows the page and changes
 * nothing; pressing its button confirms a pending signup once; every other token gets its own answer.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { TOKEN_PLACEHOLDER } from '#contract/confirmation';
import { TOKEN_INDEX } from '#contract/waitlist-table';
import { newLinkId, newConfirmationToken as newToken } from '../../../functions/confirm/confirmation-token';
import { functionUnderTest } from './function-under-test';
import { httpApiEvent } from './http-api-event';

const pagesDir = mkdtempSync(join(tmpdir(), 'mandje-confirm-pages-'));
for (const language of ['nl', 'en'])
  writeFileSync(
    join(pagesDir, `confirm.${language}.html`),
    `<html lang="${language}"><input value="${TOKEN_PLACEHOLDER}"></html>`,
  );
const {
  module: { handler },
  dynamo,
  logLines,
} = await functionUnderTest(
  { TABLE_NAME: 'waitlist-test', CONFIRM_PAGES_DIR: pagesDir },
  () => import('../../../functions/confirm/handler'),
);

const open = (query: string) => {
  const event = httpApiEvent({ method: 'GET' });
  event.rawQueryString = query;
  return handler(event);
};
const press = (token: string, contentType = 'application/json') =>
  handler(
    httpApiEvent({
      contentType,
      body: contentType === 'application/json' ? JSON.stringify({ token }) : `token=${token}&language=en`,
    }),
  );
const answer = (result: { body?: string }) => JSON.parse(result.body ?? '');
const LINK_ID = newLinkId();
/** A token of a mail to the record below. */
const newConfirmationToken = (now?: Date) => newToken(LINK_ID, now);
const pendingRecord = {
  email: 'ann@example.nl',
  status: 'pending',
  createdAt: '2026-11-22T10:00:00.000Z',
};
/** The record as a consistent read sees it, having mailed `tokens`. */
const storedRecord = (status: string, tokens: { hash: string; linkHash: string }[], expiresAt = 4e9) => ({
  status,
  tokenHash: tokens[0]?.linkHash,
  mailTokenHashes: tokens.map((token) => token.hash),
  expiresAt,
});

describe('opening a confirmation link', () => {
  it('shows the page in the link’s language with the token in its form, and touches nothing', async () => {
    const { token } = newConfirmationToken();
    const page = await open(`lang=en&t=${token}`);

    expect(page.statusCode).toBe(200);
    expect(page.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    });
    expect(page.body).toBe(`<html lang="en"><input value="${token}"></html>`);
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('shows the Dutch page for any other language, and leaves out a token that is not base64url', async () => {
    const page = await open('lang=de&t="><script>alert(1)</script>');

    expect(page.body).toBe('<html lang="nl"><input value=""></html>');
  });
});

describe('pressing the confirm button', () => {
  // What confirming does to the record is pinned against a real store: test/integration/confirm-core.test.ts.
  it('answers "confirmed" when the record found by the link’s id takes the confirmation', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [pendingRecord] });
    dynamo.on(UpdateCommand).resolves({});
    const { token, linkHash } = newConfirmationToken();

    const result = await press(token);

    expect(result.statusCode).toBe(200);
    expect(answer(result)).toEqual({ result: 'confirmed' });
    expect(dynamo.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
      IndexName: TOKEN_INDEX.name,
      ExpressionAttributeValues: { ':link': linkHash },
    });
    expect(dynamo.commandCalls(UpdateCommand)[0]?.args[0].input.Key).toEqual({ email: 'ann@example.nl' });
  });

  it('says "already confirmed" for a token the confirmed record mailed, and changes nothing', async () => {
    const mailed = newConfirmationToken();
    dynamo.on(QueryCommand).resolves({ Items: [{ ...pendingRecord, status: 'confirmed' }] });
    dynamo.on(GetCommand).resolves({ Item: storedRecord('confirmed', [mailed]) });

    expect(answer(await press(mailed.token))).toEqual({ result: 'already-confirmed' });
    expect(answer(await press(newConfirmationToken().token))).toEqual({ result: 'unknown' });
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('says "unknown" for a token that finds nothing, or one its record never mailed', async () => {
    dynamo
      .on(QueryCommand)
      .resolvesOnce({ Items: [] })
      .resolves({ Items: [pendingRecord] });
    dynamo
      .on(UpdateCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'not mailed', $metadata: {} }));
    dynamo.on(GetCommand).resolves({ Item: storedRecord('pending', [newConfirmationToken()]) });

    expect(answer(await press(newConfirmationToken().token))).toEqual({ result: 'unknown' });
    expect(answer(await press(newConfirmationToken().token))).toEqual({ result: 'unknown' });
  });

  it('says "already confirmed" to the press that lost to another with the same token', async () => {
    const mailed = newConfirmationToken();
    // The index has not seen the other press yet; the record has.
    dynamo.on(QueryCommand).resolves({ Items: [pendingRecord] });
    dynamo
      .on(UpdateCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'confirmed', $metadata: {} }));
    dynamo.on(GetCommand).resolves({ Item: storedRecord('confirmed', [mailed]) });

    expect(answer(await press(mailed.token))).toEqual({ result: 'already-confirmed' });
    expect(dynamo.commandCalls(GetCommand)[0]?.args[0].input).toMatchObject({
      Key: { email: pendingRecord.email },
      ConsistentRead: true,
    });
  });

  it('says "expired" for a record past its expiry, even with a link still in its days', async () => {
    const mailed = newConfirmationToken();
    dynamo.on(QueryCommand).resolves({ Items: [pendingRecord] });
    dynamo
      .on(UpdateCommand)
      .rejects(new ConditionalCheckFailedException({ message: 'expired', $metadata: {} }));
    dynamo.on(GetCommand).resolves({ Item: storedRecord('pending', [mailed], Date.now() / 1000 - 60) });

    expect(answer(await press(mailed.token))).toEqual({ result: 'expired' });
  });

  it('says "invalid" without looking anything up', async () => {
    expect(answer(await press('not-a-token'))).toEqual({ result: 'invalid' });
    expect(dynamo.calls()).toHaveLength(0);
  });

  it('says "expired" for an old link, and confirms nothing with it', async () => {
    const old = newConfirmationToken(new Date(Date.now() - 8 * 86_400_000));
    dynamo
      .on(QueryCommand)
      .resolvesOnce({ Items: [] })
      .resolves({ Items: [pendingRecord] });
    dynamo.on(GetCommand).resolves({ Item: storedRecord('pending', [old]) });

    expect(answer(await press(old.token))).toEqual({ result: 'expired' });
    expect(answer(await press(old.token))).toEqual({ result: 'expired' });
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('says "already confirmed" for an old link that confirmed its signup in time', async () => {
    const old = newConfirmationToken(new Date(Date.now() - 30 * 86_400_000));
    dynamo.on(QueryCommand).resolves({ Items: [{ ...pendingRecord, status: 'confirmed' }] });
    dynamo.on(GetCommand).resolves({ Item: storedRecord('confirmed', [old]) });

    expect(answer(await press(old.token))).toEqual({ result: 'already-confirmed' });
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('sends a plain form post on to the result page in its language', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [pendingRecord] });
    dynamo.on(UpdateCommand).resolves({});

    const result = await press(newConfirmationToken().token, 'application/x-www-form-urlencoded');

    expect(result.statusCode).toBe(303);
    expect(result.headers?.location).toBe('/en/confirm/confirmed');
  });

  it('answers a store failure with 503 (a form post: the try-again page) and logs no token', async () => {
    dynamo.on(QueryCommand).rejects(Object.assign(new Error('busy'), { name: 'ThrottlingException' }));
    const { token } = newConfirmationToken();

    const json = await press(token);
    const form = await press(token, 'application/x-www-form-urlencoded');

    expect(json.statusCode).toBe(503);
    expect(answer(json)).toEqual({ error: 'unavailable' });
    expect(form.headers?.location).toBe('/en/confirm/try-again');
    expect(logLines.join('\n')).not.toContain(token);
    expect(JSON.parse(logLines[0] ?? '')).toMatchObject({
      outcome: 'unavailable',
      status: 503,
      errorName: 'ThrottlingException',
    });
  });

  it('refuses what is not a confirm request, as the waitlist API does', async () => {
    expect((await handler(httpApiEvent({ contentType: 'text/plain', body: 'token=x' }))).statusCode).toBe(
      415,
    );
    expect((await handler(httpApiEvent({ body: '{"token":42}' }))).statusCode).toBe(400);
    expect((await handler(httpApiEvent({ method: 'DELETE', body: '{}' }))).statusCode).toBe(405);
    expect(dynamo.calls()).toHaveLength(0);
  });
});
