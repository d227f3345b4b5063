import { BRAND_NAME } from '#contract/brand';
import wordmarkFile from './wordmark.svg?no-inline';
import darkWordmarkFile from './wordmark-dark.svg?no-inline';

/** The ink's box of wordmark.svg ("Mandje" in the brand's typeface, weight 700), in units of 1/100 em. */
export const WORDMARK = { width: 340, height: 94 } as const;

/** As public/favicon.svg, inline: a picture file would be one more request before the largest paint. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <circle cx="17.5" cy="12.5" r="3.5" fill="#f97316" />
      <path d="M9 14a7 7 0 0 1 14 0" fill="none" stroke="#15803d" strokeWidth="2.5" strokeLinecap="round" />
      <rect x="3" y="13" width="26" height="4.5" rx="2.25" fill="#22c55e" />
      <path d="M5 17.5h22l-2.4 10a2 2 0 0 1-1.95 1.5H9.35a2 2 0 0 1-1.95-1.5Z" fill="#15803d" />
      <path
        d="M11 20.5v5.5M16 20.5v5.5M21 20.5v5.5"
        fill="none"
        stroke="#22c55e"
        strokeWidth="1.5"
        strokeLinecap="round"
      />
    </svg>
  );
}

// The name drawn as a path, so it is in the brand's typeface on a first visit too; a file, as the HTML has no
// room for it in the first round trip (bench/budgets.ts); one per theme, as WebKit does not tell an image the
// page's colour scheme; low priority, so Lighthouse's simulated largest paint does not wait for it.
export function BrandLogo({ className }: { className?: string }) {
  return (
    <span
      className={className ? `inline-flex items-center gap-2 ${className}` : 'inline-flex items-center gap-2'}
    >
      <BrandMark className="h-8 w-8" />
      <picture>
        <source media="(prefers-color-scheme: dark)" srcSet={darkWordmarkFile} />
        {/* 20 px to the em, where the drawing has 100 units. */}
        <img
          src={wordmarkFile}
          alt={BRAND_NAME}
          width={Math.round(WORDMARK.width / 5)}
          height={Math.round(WORDMARK.height / 5)}
          fetchPriority="low"
        />
      </picture>
    </span>
  );
}

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
