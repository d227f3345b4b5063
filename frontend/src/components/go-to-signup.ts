export const SIGNUP_SECTION_ID = 'signup';
export const SIGNUP_EMAIL_INPUT_ID = 'signup-email';

/**
 * Brings the signup form into view and puts the cursor in it. The sections on the way are rendered first
 * (styles.css lets the browser skip them until they come near), so the scroll lands where it should.
 * Smoothness comes from the stylesheet, which turns it off for visitors who prefer reduced motion.
 */
export function goToSignup(): void {
  document.documentElement.dataset.render = 'all';
  document.getElementById(SIGNUP_SECTION_ID)?.scrollIntoView({ block: 'start' });
  document.getElementById(SIGNUP_EMAIL_INPUT_ID)?.focus({ preventScroll: true });
}
