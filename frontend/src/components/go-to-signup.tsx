import type { MouseEvent, ReactNode } from 'react';

export const SIGNUP_SECTION_ID = 'signup';
export const SIGNUP_EMAIL_INPUT_ID = 'signup-email';

/** How long after the jump the page still corrects its aim: after that, a scroll is the visitor's own. */
const AIM_FOR_MS = 3_000;
const HASH = `#${SIGNUP_SECTION_ID}`;

/** A click without a modifier key: one that opens no new tab or window, so the page may handle it itself. */
export const isPlainClick = (event: MouseEvent) =>
  event.button === 0 && !(event.metaKey || event.ctrlKey || event.shiftKey || event.altKey);

/** A plain `#signup` anchor without the script; with it a plain click also focuses the field (goToSignup). */
export function SignupLink({ className, children }: { className: string; children: ReactNode }) {
  return (
    <a
      href={HASH}
      onClick={(event) => {
        if (!isPlainClick(event)) return;
        event.preventDefault();
        if (location.hash !== HASH) history.pushState(null, '', HASH);
        goToSignup();
      }}
      className={className}
    >
      {children}
    </a>
  );
}

export function goToSignup(): void {
  const section = document.getElementById(SIGNUP_SECTION_ID);
  section?.scrollIntoView({ block: 'start' });
  if (section) keepAimedAt(section);
  document.getElementById(SIGNUP_EMAIL_INPUT_ID)?.focus({ preventScroll: true });
}

// Parts the scroll passes take the typeface and can move the section; WebKit has no scroll anchoring to
// make up for it (measured: 20 px off). So the section is re-aimed at rest and on resizes for a few
// seconds, unless the visitor has scrolled since.
function keepAimedAt(section: HTMLElement): void {
  const aimedAt = performance.now();
  const fresh = () => performance.now() - aimedAt <= AIM_FOR_MS;
  let restingAt: number | undefined;
  const aim = () => {
    const margin = Number.parseFloat(getComputedStyle(section).scrollMarginTop) || 0;
    if (Math.abs(section.getBoundingClientRect().top - margin) > 1)
      section.scrollIntoView({ block: 'start', behavior: 'instant' });
    restingAt = window.scrollY;
  };
  whenScrollEnds(() => fresh() && aim());
  const resized = new ResizeObserver(() => {
    if (restingAt !== undefined && Math.abs(window.scrollY - restingAt) <= 1 && fresh()) aim();
  });
  resized.observe(document.body);
  window.setTimeout(() => resized.disconnect(), AIM_FOR_MS);
}

// Focuses the field after a jump to `#signup` the browser made before the script ran, unless the focus is
// elsewhere or the page was restored (reload, Back/Forward), where typing would go to a field out of view.
export function focusSignupOnArrival(): void {
  if (location.hash !== HASH) return;
  if (document.activeElement && document.activeElement !== document.body) return;
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  if (navigation?.type === 'reload' || navigation?.type === 'back_forward') return;
  document.getElementById(SIGNUP_EMAIL_INPUT_ID)?.focus({ preventScroll: true });
}

// Safari and WebKitGTK 2.50 never fire `scrollend`. A slow phone may start the scroll late, so a second
// without one is rest, and then 200 ms of quiet (WebKitGTK's typeface swap lands ~50 ms after the last scroll).
function whenScrollEnds(then: () => void): void {
  if (window.onscrollend !== undefined) {
    window.addEventListener('scrollend', then, { once: true });
    return;
  }
  let rest = window.setTimeout(atRest, 1_000);
  function onScroll() {
    window.clearTimeout(rest);
    rest = window.setTimeout(atRest, 200);
  }
  function atRest() {
    window.removeEventListener('scroll', onScroll);
    then();
  }
  window.addEventListener('scroll', onScroll, { passive: true });
}
