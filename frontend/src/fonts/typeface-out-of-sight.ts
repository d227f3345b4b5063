/**
 * Sets the page in its typeface part by part, each part once it is out of sight (styles.css says why, at
 * the @font-face): the parts below the first screen at once, the first screen when the visitor has
 * scrolled it away. Text a visitor is looking at never changes its font, so nothing on screen moves.
 * Without IntersectionObserver the page stays in the fallback, which is metric for metric the same page.
 * Run once the app has committed (main.tsx), so that the parts it watches are the ones on the page, also
 * when the page was rendered afresh rather than hydrated; returns what stops it.
 */
export function setTypefaceOutOfSight(): () => void {
  if (!('IntersectionObserver' in window)) return () => {};
  const observer = new IntersectionObserver((entries) => {
    for (const { target, isIntersecting } of entries) {
      if (isIntersecting) continue;
      target.setAttribute('data-typeface', '');
      observer.unobserve(target);
    }
  });
  for (const part of document.querySelectorAll('#root > header, main > *, #root > footer'))
    observer.observe(part);
  return () => observer.disconnect();
}
