/**
 * The HTTP status of every error the API answers, whichever route answers it (waitlist, confirm, leave,
 * leave-request): one word for what went wrong, one status for that word. Each route lists the words it
 * can answer and takes their statuses from here, so a status cannot differ between routes or between the
 * functions and the page. No runtime dependencies.
 */
export const API_ERROR_STATUS = {
  /** An address that is not one (waitlist, leave-request). */
  invalid_email: 400,
  /** A body that cannot be read, or lacks what the route needs. */
  invalid_request: 400,
  /** A post another site's page made (cross-site), or a request that did not come through CloudFront. */
  forbidden: 403,
  method_not_allowed: 405,
  /** The address is on the list already (waitlist). */
  already_registered: 409,
  /** A body over MAX_REQUEST_BYTES (#contract/waitlist-api). */
  payload_too_large: 413,
  /** Not JSON or a form, not UTF-8, or compressed. */
  unsupported_media_type: 415,
  /** Too many requests from one client (AWS WAF on CloudFront; the runner's adapter locally). */
  rate_limited: 429,
  /** A permanent fault (no permission, a missing table, a bug): logged and alarmed; retrying will not help. */
  internal: 500,
  /** A transient fault (the store busy, slow or unreachable): safe to retry. */
  unavailable: 503,
} as const;

export type ApiError = keyof typeof API_ERROR_STATUS;

/** What any POST is refused for before its route reads it: its method, its type or coding, its size, its bytes. */
export type BodyRefusal = Extract<
  ApiError,
  'method_not_allowed' | 'unsupported_media_type' | 'payload_too_large' | 'invalid_request'
>;

/**
 * A route's table of statuses: its own for success, and each of its errors' from the one table. Marked
 * free of side effects (and called with plain literals), so a page that imports a contract module but not
 * its table bundles neither the table nor this.
 */
/* @__NO_SIDE_EFFECTS__ */
export function statusTable<const Success extends Record<string, number>, const Errors extends ApiError>(
  success: Success,
  errors: readonly Errors[],
): Success & { readonly [Name in Errors]: (typeof API_ERROR_STATUS)[Name] } {
  return {
    ...success,
    ...Object.fromEntries(errors.map((error) => [error, API_ERROR_STATUS[error]])),
  } as Success & {
    readonly [Name in Errors]: (typeof API_ERROR_STATUS)[Name];
  };
}
