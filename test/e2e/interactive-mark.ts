/**
 * Marks the moment the page is interactive, for the tests that drive a browser (test/e2e, test/engines). The
 * page's first passive effect writes `<html lang>` (see applyPageMetadata); a script-made attribute write
 * queues a mutation record even when the value does not change, while the HTML parser's own attributes do
 * not. So the first `lang` mutation on <html> means React has hydrated (or rendered) and its event handlers
 * are attached. Run it before the page's own scripts (an init script): it is sent to the browser as source,
 * so it uses nothing from outside its own body.
 */
export function markWhenInteractive(): void {
  const state = window as unknown as { __mandjeInteractive?: boolean };
  new MutationObserver((records, observer) => {
    if (records.some((record) => record.target === document.documentElement)) {
      state.__mandjeInteractive = true;
      observer.disconnect();
    }
  }).observe(document, { attributes: true, attributeFilter: ['lang'], subtree: true });
}

/** Whether markWhenInteractive has seen the page become interactive (run in the page). */
export function isInteractive(): boolean {
  return (window as unknown as { __mandjeInteractive?: boolean }).__mandjeInteractive === true;
}
