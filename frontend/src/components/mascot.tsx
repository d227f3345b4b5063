/**
 * Mandje's mascot, a basket of groceries: a picture file (public/mascot.svg), not markup in the page, so
 * the page's HTML stays within the first round trips of a slow connection and the script carries none of
 * its paths. It sits below the first screen, so it is fetched when it nears the viewport.
 */
export function Mascot({ className, label }: { className?: string; label: string }) {
  return (
    <img
      src="/mascot.svg"
      alt={label}
      width={200}
      height={200}
      loading="lazy"
      decoding="async"
      className={className}
    />
  );
}
