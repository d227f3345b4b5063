import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { checkEmail } from '#contract/email-address';
import { isLocale, LOCALES, type Locale } from '#contract/locales';
import { type JoinWaitlistError, type JoinWaitlistRequest, MAX_REQUEST_BYTES } from '#contract/waitlist-api';
import { type RequestForm, readRequestBody } from '../http/request-body';

// zod/mini: the same checks as zod, tree-shaken to what is used (the full build adds ~450 KB to the bundle).
const joinRequestSchema = z.object({
  email: z.string(),
  language: z.enum(LOCALES),
  website: z.optional(z.string().check(z.maxLength(MAX_REQUEST_BYTES))),
}) satisfies z.ZodMiniType<JoinWaitlistRequest>;

export type { RequestForm };

/** A request that may be stored: its fields, with the address's canonical key. */
export type JoinRequest = JoinWaitlistRequest & { key: string };

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

/** Everything that can be wrong with a request, checked before anything is stored. */
export function parseJoinRequest(event: APIGatewayProxyEventV2): ParsedJoinRequest {
  const body = readRequestBody(event);
  if (!body.ok) return { ok: false, form: body.form, language: undefined, error: body.error };
  const { form, fields } = body;
  const language = languageOf(fields);
  const shape = joinRequestSchema.safeParse(fields);
  if (!shape.success) return { ok: false, form, language, error: 'invalid_request' };

  const email = checkEmail(shape.data.email);
  if (!email.ok) return { ok: false, form, language, error: 'invalid_email' };
  return { ok: true, form, request: { ...shape.data, email: email.email, key: email.key } };
}
