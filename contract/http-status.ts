/** One status per error word, whichever route answers it. */
export const API_ERROR_STATUS = {
  invalid_email: 400,
  invalid_request: 400,
  forbidden: 403,
  method_not_allowed: 405,
  already_registered: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  /** Permanent: logged and alarmed. */
  internal: 500,
  /** Transient: safe to retry. */
  unavailable: 503,
} as const;

export type ApiError = keyof typeof API_ERROR_STATUS;

/** What any POST is refused for before its route reads it. */
export type BodyRefusal = Extract<
  ApiError,
  'method_not_allowed' | 'unsupported_media_type' | 'payload_too_large' | 'invalid_request'
>;

// A route's statuses: its successes and every error word but `without`; pure, so an unused table is dropped.
/* @__NO_SIDE_EFFECTS__ */
export function statusTable<
  const Success extends Record<string, number>,
  const Without extends ApiError = never,
>(success: Success, without: readonly Without[] = []): Success & Omit<typeof API_ERROR_STATUS, Without> {
  const table: Record<string, number> = { ...success, ...API_ERROR_STATUS };
  for (const error of without) delete table[error];
  return table as Success & Omit<typeof API_ERROR_STATUS, Without>;
}
