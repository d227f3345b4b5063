import { JSON_CONTENT_TYPE } from '#contract/waitlist-api';

/** Null when no answer came (no network, or none within 10 s); `answer` is null when the body is not JSON. */
export async function postJson(path: string, body: unknown) {
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': JSON_CONTENT_TYPE },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
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
