/**
 * The page's entry. The text is prerendered and the stylesheet is linked in the HTML, so the first paint
 * needs no script: the app (React, to make the demo and the form work) is asked for only once that paint
 * is done, and a slow connection spends itself on what the visitor sees first.
 */
import './styles.css';

/**
 * The copy of the page's language, fetched alongside the app rather than after it: the same chunks
 * i18n/lazy-messages.ts loads, named here because the entry must not import the app's modules.
 */
const COPY: Record<string, () => Promise<unknown>> = {
  nl: () => import('./i18n/messages/nl'),
  en: () => import('./i18n/messages/en'),
};

const startApp = () => {
  void COPY[document.documentElement.lang]?.();
  void import('./main');
};

/** Runs `start` once the page has painted its first content, or at once where that cannot be told. */
function afterFirstContentfulPaint(start: () => void): void {
  // Hidden tabs do not paint, and a browser without paint timing cannot say when it did.
  if (document.visibilityState !== 'visible' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    start();
    return;
  }
  const observer = new PerformanceObserver((entries) => {
    if (!entries.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    start();
  });
  observer.observe({ type: 'paint', buffered: true });
}

afterFirstContentfulPaint(startApp);
