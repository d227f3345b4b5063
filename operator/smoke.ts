/** `smoke <url>`: the live site after a deploy, end to end, as a visitor and a mail provider use it. */
import { setTimeout as delay } from 'node:timers/promises';
import { emailKey, SMOKE_ADDRESS } from '#contract/email-address';
import { leaveLink, ONE_CLICK_FIELD, ONE_CLICK_VALUE } from '#contract/leave';
import { inlineHash, inlineScriptsOf, inlineStylesOf, securityHeaders } from '#contract/security-headers';
import { LANGUAGE_HOMES } from '#contract/site-serving';
import { VISIT_LANGUAGE_PARAMETER, VISIT_PATH } from '#contract/visit-counting';
import { FORM_CONTENT_TYPE, JSON_CONTENT_TYPE, WAITLIST_PATH } from '#contract/waitlist-api';
import { leaveToken } from '../functions/leave/leave-token';
import { readItem } from '../functions/store/store-client';
import { forgetRecords, type WaitlistTable } from './waitlist-store-access';

// SMOKE_ADDRESS is SES's mailbox simulator: it accepts the mail and delivers it nowhere; the functions count
// it in no funnel and hold it to no mail limit. A robot's user agent: the visit beacon counts none.
const USER_AGENT = 'mandje-smoke-bot (npm run waitlist -- smoke)';

/** How long the mailer has to send the confirmation. */
const MAIL_SECONDS = 60;

type SmokeRun = { site: URL; table: WaitlistTable; out(line: string): void };

class Failed extends Error {}
const expect = (holds: boolean, problem: string) => {
  if (!holds) throw new Failed(problem);
};

/** The contract's headers; the policy's hashes may be any build's, but must allow this page's inline code. */
function headerProblems(headers: Headers, html: string): string[] {
  const normal = (value: string | null) =>
    (value ?? '')
      .replace(/\s'sha256-[^']*'/g, '')
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .trim();
  const problems = Object.entries(securityHeaders())
    .filter(([name, value]) => normal(headers.get(name)) !== normal(value))
    .map(([name]) => `${name} ${headers.has(name) ? `is "${headers.get(name)}"` : 'missing'}`);
  const policy = headers.get('content-security-policy') ?? '';
  const blocked = [...inlineStylesOf(html), ...inlineScriptsOf(html)].filter(
    (code) => !policy.includes(inlineHash(code)),
  );
  if (blocked.length > 0) problems.push(`its policy blocks ${blocked.length} of the page's inline elements`);
  return problems;
}

export async function runSmoke({ site, table, out }: SmokeRun): Promise<number> {
  const key = emailKey(SMOKE_ADDRESS) as string;
  /** `from`: whose post, as a browser sends the page's own or another site's; a mail provider's says neither. */
  const request = async (path: string, init: RequestInit & { from?: 'page' | 'cross-site' } = {}) => {
    const { from, ...rest } = init;
    const origin = from === 'page' ? site.origin : 'https://cross-site.invalid';
    const response = await fetch(new URL(path, site), {
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
      ...rest,
      headers: {
        'user-agent': USER_AGENT,
        ...(from ? { origin, 'sec-fetch-site': from === 'page' ? 'same-origin' : 'cross-site' } : {}),
        ...(rest.headers as Record<string, string>),
      },
    });
    return { status: response.status, headers: response.headers, body: await response.text() };
  };
  const join = (from: 'page' | 'cross-site' = 'page') =>
    request(WAITLIST_PATH, {
      method: 'POST',
      from,
      headers: { 'content-type': JSON_CONTENT_TYPE },
      body: JSON.stringify({ email: SMOKE_ADDRESS, language: 'en' }),
    });
  const answered = (answer: { status: number; body: string }, status: number, body?: string) =>
    expect(
      answer.status === status && (body === undefined || answer.body.trim() === body),
      `answered ${answer.status} ${answer.body.slice(0, 120).trim()}`,
    );

  let [checked, failed] = [0, 0];
  const check = async (name: string, run: () => Promise<string>) => {
    checked++;
    const said = await run().catch((error: unknown) =>
      error instanceof Failed ? error : new Failed(`could not check (${(error as Error).message})`),
    );
    if (said instanceof Failed) failed++;
    out(said instanceof Failed ? `FAIL  ${name}: ${said.message}` : `ok    ${name}: ${said}`);
  };

  for (const path of LANGUAGE_HOMES)
    await check(`page ${path}`, async () => {
      const page = await request(path);
      answered(page, 200);
      const problems = headerProblems(page.headers, page.body);
      expect(problems.length === 0, problems.join('; '));
      return `200 with its ${Object.keys(securityHeaders()).length} security headers`;
    });
  await check('not found', async () => {
    const missing = await request(`/smoke-check-${Date.now().toString(36)}`);
    answered(missing, 404);
    expect(/text\/html/.test(missing.headers.get('content-type') ?? ''), 'not a page');
    return 'an unknown path answers the not-found page, 404';
  });
  await check('signup', async () => {
    await forgetRecords(table, SMOKE_ADDRESS); // what an earlier run cut short left
    answered(await join(), 201, '{"status":"joined"}');
    return `${SMOKE_ADDRESS} joined through ${WAITLIST_PATH}`;
  });
  let record: Record<string, unknown> | undefined;
  await check('mail', async () => {
    const ends = Date.now() + MAIL_SECONDS * 1_000;
    for (;;) {
      record = await readItem(table, { email: key });
      expect(record !== undefined, 'the signup has no record in the table');
      if (record?.mailRequestId !== undefined && record.mailedRequestId === record.mailRequestId)
        return 'the confirmation mail is sent, as the table records';
      expect(Date.now() < ends, `the confirmation mail was not sent within ${MAIL_SECONDS} s`);
      await delay(500);
    }
  });
  await check('duplicate', async () => {
    answered(await join(), 409, '{"error":"already_registered"}');
    return 'a second signup answers 409 already_registered';
  });
  await check('cross-site', async () => {
    answered(await join('cross-site'), 403, '{"error":"forbidden"}');
    return "another site's post answers 403 forbidden";
  });
  await check('visit', async () => {
    const visit = `${VISIT_PATH}?${VISIT_LANGUAGE_PARAMETER}=nl`;
    answered(await request(visit, { method: 'POST', from: 'page' }), 204);
    return 'the beacon answers 204 (a robot: not counted)';
  });
  await check('leave', async () => {
    const { linkId, leaveKey } = record ?? {};
    expect(typeof linkId === 'string' && typeof leaveKey === 'string', 'the record has no leave link');
    const link = leaveLink(site.href, 'en', leaveToken(String(linkId), String(leaveKey)));
    const body = `${ONE_CLICK_FIELD}=${ONE_CLICK_VALUE}`;
    answered(
      await request(link, { method: 'POST', headers: { 'content-type': FORM_CONTENT_TYPE }, body }),
      200,
    );
    expect((await readItem(table, { email: key })) === undefined, 'the record is still there');
    return 'a one-click post to the leave link (RFC 8058) removes the record';
  });

  // Nothing left behind, whatever failed.
  if ((await forgetRecords(table, SMOKE_ADDRESS).catch(() => undefined)) === undefined) {
    failed++;
    out(`FAIL  clean-up: could not forget ${SMOKE_ADDRESS}: run waitlist forget ${SMOKE_ADDRESS}`);
  }
  out(failed ? `${failed} of ${checked} checks failed.` : `All ${checked} checks passed.`);
  return failed ? 1 : 0;
}
