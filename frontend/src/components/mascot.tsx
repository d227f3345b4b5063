/**
 * Mandje's mascot, a basket of groceries: a picture file (public/mascot.svg), not markup in the page, so
 * the page's HTML stays within the first round trips of a slow connection and the script carries none of
 * its paths. Below the first screen (the landing page's) it is fetched when it nears the viewport; on a
 * small page, where it is in the first screen, `eager`.
 */
export function Mascot({
  className,
  label,
  eager = false,
}: {
  className?: string;
  /** What it shows; empty where it only decorates a page whose heading says it all. */
  label: string;
  eager?: boolean;
}) {
  return (
    <img
      src="/mascot.svg"
      alt={label}
      width={200}
      height={200}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      className={className}
    />
  );
}
