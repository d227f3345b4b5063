/** A small busy indicator for buttons; it stands still for visitors who prefer reduced motion. */
export function Spinner({ className = 'border-current' }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`h-4 w-4 rounded-full border-2 border-t-transparent motion-safe:animate-spin ${className}`}
    />
  );
}
