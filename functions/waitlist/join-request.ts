import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { checkEmail } from '#contract/email-address';
import { LOCALES, type Locale } from '#contract/locales';
import { type SignupSource, SOURCE_FIELDS, sourceValue, utmSourceOf } from '#contract/signup-source';
import { type JoinWaitlistError, type JoinWaitlistRequest, MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { languageOf, type RequestForm, readRequestBody } from '../http/request-body';
import { hostOf, isOwnHost } from '../http/request-guard';

// zod/mini: the full build adds ~450 KB to the bundle.
const joinRequestSchema = z.object({
  email: z.string(),
  language: z.enum(LOCALES),
  website: z.optional(z.string().check(z.maxLength(MAX_REQUEST_BYTES))),
  // sourceValue keeps or drops these: an odd value never costs a signup.
  utmSource: z.optional(z.string()),
  utmMedium: z.optional(z.string()),
  utmCampaign: z.optional(z.string()),
  referrer: z.optional(z.string()),
}) satisfies z.ZodMiniType<JoinWaitlistRequest & SignupSource>;

// A form posted without script cannot say where its visitor came from, but its Referer is the page's own
// address, query included (strict-origin-when-cross-origin keeps it whole on the same origin). Read only
// when that page is on this site: another site's address says nothing about this one's links.
function utmSourceOfReferer(event: APIGatewayProxyEventV2, siteHosts: readonly string[]): SignupSource {
  const referer = event.headers?.referer;
  if (referer === undefined || referer.length > 2_048) return {};
  const refererHost = hostOf(referer);
  if (refererHost === undefined || !isOwnHost(event, refererHost, siteHosts)) return {};
  return utmSourceOf(new URL(referer).search);
}

/** `siteHosts` (SITE_ORIGINS): a form post's Referer from one of them gives the UTM values its body lacks. */
export function parseJoinRequest(
  event: APIGatewayProxyEventV2,
  siteHosts: readonly string[] = [],
):
  | { ok: true; form: RequestForm; request: JoinWaitlistRequest & { key: string; source?: SignupSource } }
  | {
      ok: false;
      form: RequestForm | undefined;
      language: Locale | undefined;
      error: Exclude<JoinWaitlistError, 'already_registered' | 'unavailable'>;
    } {
  const body = readRequestBody(event);
  if (!body.ok) return { ok: false, form: body.form, language: undefined, error: body.error };
  const { form, fields } = body;
  const language = languageOf(fields);
  const shape = joinRequestSchema.safeParse(fields);
  if (!shape.success) return { ok: false, form, language, error: 'invalid_request' };
  const email = checkEmail(shape.data.email);
  if (!email.ok) return { ok: false, form, language, error: 'invalid_email' };
  const { website } = shape.data;
  // A script sends what it read itself, or nothing on purpose.
  const fallback = form === 'form' ? utmSourceOfReferer(event, siteHosts) : {};
  const source: SignupSource = {};
  for (const field of SOURCE_FIELDS) {
    const value = sourceValue(shape.data[field]) ?? fallback[field];
    if (value !== undefined) source[field] = value;
  }
  return {
    ok: true,
    form,
    request: {
      email: email.email,
      key: email.key,
      language: shape.data.language,
      ...(website === undefined ? {} : { website }),
      ...(Object.keys(source).length > 0 ? { source } : {}),
    },
  };
}
