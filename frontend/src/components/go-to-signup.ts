export const SIGNUP_SECTION_ID = 'signup';
export const SIGNUP_EMAIL_INPUT_ID = 'signup-email';

/**
 * Brings the signup form into view and puts the cursor in it. Smoothness comes from the stylesheet, which
 * turns it off for visitors who prefer reduced motion.
 */
export function goToSignup(): void {
  document.getElementById(SIGNUP_SECTION_ID)?.scrollIntoView({ block: 'start' });
  document.getElementById(SIGNUP_EMAIL_INPUT_ID)?.focus({ preventScroll: true });
}
