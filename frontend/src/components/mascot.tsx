/** A file, not markup, so the page's HTML stays within the first round trips of a slow connection. */
export function Mascot(props: { className: string; label: string; eager?: boolean }) {
  return (
    <img
      src="/mascot.svg"
      alt={props.label}
      width={200}
      height={200}
      loading={props.eager ? 'eager' : 'lazy'}
      decoding="async"
      className={props.className}
    />
  );
}
