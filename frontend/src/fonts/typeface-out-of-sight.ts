// Each part of the page takes the typeface once out of sight (styles.css says why); without
// IntersectionObserver the metric-matched fallback stays.
export function setTypefaceOutOfSight(): () => void {
  if (document.documentElement.dataset.typeface === 'cached') return () => {};
  document.fonts?.load('1em "Bricolage Grotesque Swap"').catch(() => {});
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
