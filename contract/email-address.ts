/**
 * The one rule for a waitlist address, used by the form and by the API: not empty after trimming, then
 * text, an at sign, text, a dot, text, with no whitespace anywhere, and no longer than an address can be.
 * Control characters and unpaired surrogates are refused too: no address has them, and JSON spells each as
 * six bytes, so a long run of them would make an address the form accepts too large for the API's 1 KB.
 */
export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_SHAPE = /^[^\s@\p{Cc}\p{Cs}]+@[^\s@\p{Cc}\p{Cs}]+\.[^\s@\p{Cc}\p{Cs}]+$/u;

export type EmailProblem = 'empty' | 'malformed';
export type EmailCheck = { ok: true; email: string } | { ok: false; problem: EmailProblem };

export function checkEmail(raw: string): EmailCheck {
  const email = raw.trim();
  if (email === '') return { ok: false, problem: 'empty' };
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_SHAPE.test(email)) return { ok: false, problem: 'malformed' };
  return { ok: true, email };
}
