/** The family of the face for parts set in the typeface after the first paint (fonts/font-faces.css). */
const LATE_FAMILY = 'Bricolage Grotesque Swap';

/**
 * Sets the page in its typeface part by part, each part once it is out of sight (styles.css says why, at
 * the @font-face): the parts below the first screen at once, the first screen when the visitor has
 * scrolled it away. Text a visitor is looking at never changes its font, so nothing on screen moves.
 * Without IntersectionObserver the page stays in the fallback, which is metric for metric the same page.
 * A page index.html found in the browser's cache is in the typeface from its first paint already
 * (`data-typeface="cached"` on <html>): nothing to do. Either way the file is fetched once the page has
 * painted, for the next page, which can use it from its first paint. Run once the app has committed
 * (main.tsx), so that the parts it watches are the ones on the page, also when the page was rendered
 * afresh rather than hydrated; returns what stops it.
 */
export function setTypefaceOutOfSight(): () => void {
  if (document.documentElement.dataset.typeface === 'cached') return () => {};
  document.fonts?.load(`1em "${LATE_FAMILY}"`).catch(() => {});
  if (!('IntersectionObserver' in window)) return () => {};
  const observer = new IntersectionObserver((entries) => {
    for (const { target, isIntersecting } of entries) {
      if (isIntersecting) continue;
      target.setAttribute('data-typeface', 'out-of-sight');
      observer.unobserve(target);
    }
  });
  for (const part of document.querySelectorAll('#root > header, main > *, #root > footer'))
    observer.observe(part);
  return () => observer.disconnect();
}
