import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { checkEmail } from '#contract/email-address';
import { isLocale, LOCALES, type Locale } from '#contract/locales';
import { type SignupSource, SOURCE_FIELDS, sourceValue } from '#contract/signup-source';
import { type JoinWaitlistError, type JoinWaitlistRequest, MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { type RequestForm, readRequestBody } from '../http/request-body';
import { utmSourceOfReferer } from './referer-source';

// zod/mini: the same checks as zod, tree-shaken to what is used (the full build adds ~450 KB to the bundle).
const joinRequestSchema = z.object({
  email: z.string(),
  language: z.enum(LOCALES),
  website: z.optional(z.string().check(z.maxLength(MAX_REQUEST_BYTES))),
  // Any string passes here; sourceValue then keeps it or drops it, so an odd value never costs a signup.
  utmSource: z.optional(z.string()),
  utmMedium: z.optional(z.string()),
  utmCampaign: z.optional(z.string()),
  referrer: z.optional(z.string()),
}) satisfies z.ZodMiniType<JoinWaitlistRequest & SignupSource>;

export type { RequestForm };

/**
 * A request that may be stored: its fields, with the address's canonical key, and where it came from when
 * any of that could be kept.
 */
export type JoinRequest = JoinWaitlistRequest & { key: string; source?: SignupSource };

export type ParsedJoinRequest =
  | { ok: true; form: RequestForm; request: JoinRequest }
  | {
      ok: false;
      /** Undefined when the request is neither form, so it can only be answered with JSON. */
      form: RequestForm | undefined;
      /** The language the request asked for, when it got as far as saying one. */
      language: Locale | undefined;
      error: Exclude<JoinWaitlistError, 'already_registered' | 'unavailable'>;
    };

const languageOf = (fields: unknown): Locale | undefined => {
  const language = (fields as { language?: unknown } | null | undefined)?.language;
  return isLocale(language) ? language : undefined;
};

/** The source values that may be kept, each from the body or else `fallback`; undefined when none. */
function keptSource(fields: SignupSource, fallback: SignupSource): SignupSource | undefined {
  const source: SignupSource = {};
  for (const field of SOURCE_FIELDS) {
    const value = sourceValue(fields[field]) ?? fallback[field];
    if (value !== undefined) source[field] = value;
  }
  return Object.keys(source).length > 0 ? source : undefined;
}

/**
 * Everything that can be wrong with a request, checked before anything is stored. `siteHosts` are the
 * site's own hosts besides the request's (SITE_ORIGINS): a form post's Referer from one of them gives the
 * UTM values its body lacks.
 */
export function parseJoinRequest(
  event: APIGatewayProxyEventV2,
  siteHosts: readonly string[] = [],
): ParsedJoinRequest {
  const body = readRequestBody(event);
  if (!body.ok) return { ok: false, form: body.form, language: undefined, error: body.error };
  const { form, fields } = body;
  const language = languageOf(fields);
  const shape = joinRequestSchema.safeParse(fields);
  if (!shape.success) return { ok: false, form, language, error: 'invalid_request' };

  const email = checkEmail(shape.data.email);
  if (!email.ok) return { ok: false, form, language, error: 'invalid_email' };
  const { website } = shape.data;
  // Only a form post reads its Referer: a script sends what it read itself, or nothing on purpose.
  const source = keptSource(shape.data, form === 'form' ? utmSourceOfReferer(event, siteHosts) : {});
  return {
    ok: true,
    form,
    request: {
      email: email.email,
      key: email.key,
      language: shape.data.language,
      ...(website === undefined ? {} : { website }),
      ...(source ? { source } : {}),
    },
  };
}
