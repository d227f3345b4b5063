/**
 * The mark, drawn once in public/favicon.svg and shown from there: the page's HTML stays within the first
 * round trips of a slow connection, and the browser has the file from the tab's icon. Decorative: the name
 * is always beside it or said otherwise.
 */
export function BrandMark({ className }: { className?: string }) {
  return <img src="/favicon.svg" alt="" width={32} height={32} decoding="async" className={className} />;
}

export function BrandLogo({ className }: { className?: string }) {
  return (
    <span
      className={className ? `inline-flex items-center gap-2 ${className}` : 'inline-flex items-center gap-2'}
    >
      <BrandMark className="h-8 w-8" />
      <span className="text-xl font-bold tracking-tight">Mandje</span>
    </span>
  );
}
