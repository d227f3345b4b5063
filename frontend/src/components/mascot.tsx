/** A file, not markup, so the page's HTML stays within the first round trips of a slow connection. */
export function Mascot({
  className,
  label,
  eager = false,
}: {
  className?: string;
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
