import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { checkEmail } from '#contract/email-address';
import { LOCALES } from '#contract/locales';
import { type JoinWaitlistError, type JoinWaitlistRequest, MAX_REQUEST_BYTES } from '#contract/waitlist-api';

// zod/mini: the same checks as zod, tree-shaken to what is used (the full build adds ~450 KB to the bundle).
const joinRequestSchema = z.object({
  email: z.string(),
  language: z.enum(LOCALES),
  website: z.optional(z.string().check(z.maxLength(MAX_REQUEST_BYTES))),
}) satisfies z.ZodMiniType<JoinWaitlistRequest>;

export type ParsedJoinRequest =
  | { ok: true; request: JoinWaitlistRequest }
  | { ok: false; error: Exclude<JoinWaitlistError, 'already_registered' | 'unavailable'> };

const isJson = (contentType: string | undefined) =>
  contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';

/** Everything that can be wrong with a request, checked before anything is stored. */
export function parseJoinRequest(event: APIGatewayProxyEventV2): ParsedJoinRequest {
  if (event.requestContext.http.method !== 'POST') return { ok: false, error: 'method_not_allowed' };
  if (!isJson(event.headers['content-type'])) return { ok: false, error: 'unsupported_media_type' };

  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (body.byteLength > MAX_REQUEST_BYTES) return { ok: false, error: 'payload_too_large' };

  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, error: 'invalid_request' };
  }
  const shape = joinRequestSchema.safeParse(json);
  if (!shape.success) return { ok: false, error: 'invalid_request' };

  const email = checkEmail(shape.data.email);
  if (!email.ok) return { ok: false, error: 'invalid_email' };
  return { ok: true, request: { ...shape.data, email: email.email } };
}
