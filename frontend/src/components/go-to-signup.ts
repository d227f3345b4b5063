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
  if (section) keepAimedAt(section);
  focusEmailField();
}

/** How long after the jump the page still corrects its aim: after that, a scroll is the visitor's own. */
const AIM_FOR_MS = 3_000;

/**
 * Parts the scroll passes are set in the typeface as they leave the view (fonts/), which can move the
 * section after the smooth scroll took its aim, or after the scroll, when the font file comes late. Chromium
 * and Firefox make up for a change above the view (scroll anchoring); WebKit, Safari's engine, does not
 * (measured in WebKitGTK: the form 20 px too far). So once the scroll has come to rest the section is put
 * at its place, and put back whenever the page changes size in the next few seconds, unless the visitor
 * has scrolled since. Only this jump: a listener left over (no scroll was needed) must not pull the visitor
 * back at the end of their own scroll later.
 */
function keepAimedAt(section: HTMLElement): void {
  const aimedAt = performance.now();
  const fresh = () => performance.now() - aimedAt <= AIM_FOR_MS;
  /** Where the page rests once aimed: a scroll away from it is the visitor's. */
  let restingAt: number | undefined;
  const aim = () => {
    const margin = Number.parseFloat(getComputedStyle(section).scrollMarginTop) || 0;
    if (Math.abs(section.getBoundingClientRect().top - margin) > 1)
      section.scrollIntoView({ block: 'start', behavior: 'instant' });
    restingAt = window.scrollY;
  };
  whenScrollEnds(() => {
    if (fresh()) aim();
  });
  if (!('ResizeObserver' in window)) return;
  const resized = new ResizeObserver(() => {
    if (restingAt !== undefined && Math.abs(window.scrollY - restingAt) <= 1 && fresh()) aim();
  });
  resized.observe(document.body);
  window.setTimeout(() => resized.disconnect(), AIM_FOR_MS);
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

/**
 * Where there is no `scrollend`: how long the page must go without a scroll event to be at rest (long enough
 * for the parts the scroll took out of sight to take their typeface: measured 50 ms after the last scroll
 * event in WebKitGTK), and how long to wait for the scroll to start (rendering every section first can take
 * a few hundred milliseconds on a slow phone) before looking anyway.
 */
const SCROLL_REST_MS = 200;
const SCROLL_START_MS = 1_000;

/**
 * Calls `then` once the scroll under way has come to rest: at `scrollend`, or where the browser never fires
 * it (Safari, WebKitGTK 2.50), once no `scroll` event has come for a moment after the last one.
 */
function whenScrollEnds(then: () => void): void {
  if (window.onscrollend !== undefined) {
    window.addEventListener('scrollend', then, { once: true });
    return;
  }
  let rest = window.setTimeout(atRest, SCROLL_START_MS);
  function onScroll() {
    window.clearTimeout(rest);
    rest = window.setTimeout(atRest, SCROLL_REST_MS);
  }
  function atRest() {
    window.removeEventListener('scroll', onScroll);
    then();
  }
  window.addEventListener('scroll', onScroll, { passive: true });
}
