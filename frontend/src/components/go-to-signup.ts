export const SIGNUP_SECTION_ID = 'signup';
export const SIGNUP_EMAIL_INPUT_ID = 'signup-email';

/**
 * Brings the signup form into view and puts the cursor in it. The sections on the way are rendered first
 * (styles.css lets the browser skip them until they come near), so the scroll lands where it should.
 * Smoothness comes from the stylesheet, which turns it off for visitors who prefer reduced motion.
 */
export function goToSignup(): void {
  document.documentElement.dataset.render = 'all';
  const section = document.getElementById(SIGNUP_SECTION_ID);
  section?.scrollIntoView({ block: 'start' });
  // Parts the scroll passes are set in the typeface as they leave the view (fonts/), which can move the
  // section by a few pixels after the smooth scroll took its aim: once it ends, it lands where it should.
  // Only the end of this scroll: a listener left over (no scroll was needed) must not pull the visitor
  // back at the end of their own scroll later.
  const aimedAt = performance.now();
  if (section)
    window.addEventListener(
      'scrollend',
      () => {
        if (performance.now() - aimedAt > 3_000) return;
        const margin = Number.parseFloat(getComputedStyle(section).scrollMarginTop) || 0;
        if (Math.abs(section.getBoundingClientRect().top - margin) > 1)
          section.scrollIntoView({ block: 'start', behavior: 'instant' });
      },
      { once: true },
    );
  focusEmailField();
}

/**
 * What goToSignup does for a jump the browser made on its own, before the script ran: a link from a result
 * page to `#signup`, or a signup button pressed while the page was still loading. The cursor goes in the
 * e-mail field, unless the visitor has put the focus somewhere already, or the page was reloaded or
 * reached by Back or Forward: the browser then restores where the visitor was, not the jump, and typing
 * would go to a field out of view. The scroll is left as it is.
 */
export function focusSignupOnArrival(): void {
  if (window.location.hash !== `#${SIGNUP_SECTION_ID}`) return;
  if (document.activeElement && document.activeElement !== document.body) return;
  if (wasRestored()) return;
  focusEmailField();
}

function wasRestored(): boolean {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return navigation?.type === 'reload' || navigation?.type === 'back_forward';
}

function focusEmailField(): void {
  document.getElementById(SIGNUP_EMAIL_INPUT_ID)?.focus({ preventScroll: true });
}
