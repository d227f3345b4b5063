import { JSON_CONTENT_TYPE } from '#contract/waitlist-api';

/** How long a visitor waits for an answer of the API before being told to try again. */
export const API_TIMEOUT_MS = 10_000;

/**
 * Posts `body` as JSON to one of the API's paths and hands back its status and JSON answer (null when it
 * has none), or null when no answer came: no network, or none within API_TIMEOUT_MS. Each caller says what
 * an answer means for its page.
 */
export async function postJson(
  path: string,
  body: unknown,
): Promise<{ status: number; answer: Record<string, unknown> | null } | null> {
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': JSON_CONTENT_TYPE },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
    const answer: unknown = await response.json().catch(() => null);
    return {
      status: response.status,
      answer: typeof answer === 'object' ? (answer as Record<string, unknown>) : null,
    };
  } catch {
    return null;
  }
}
