import { BRAND_NAME } from '#contract/brand';
import wordmarkFile from './wordmark.svg?no-inline';
import { WORDMARK } from './wordmark-box';

/**
 * The mark, drawn as in public/favicon.svg. Inline, not a picture file: a picture the browser fetches
 * before the first paint is one more request on the way to the page's largest paint. Decorative: the name
 * is always beside it or said otherwise.
 */
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

/** The wordmark's size: 20 px to the em, the size the name was set in as text (its drawing has 100 units to the em). */
const WORDMARK_UNITS_PER_PX = 5;

/**
 * The logo: the mark and the name, which is drawn, not set (frontend/scripts/draw-wordmark.ts), so that it
 * is in the brand's typeface on every visit, the first included, in every engine; named for assistive
 * technology as the text was. The drawing is a picture of its own (a hashed file, cached for a year, in the
 * brand green of the visitor's theme), not markup in the page: in the page it would cost about 500 bytes
 * with brotli, which the landing page's HTML has no room for within its first round trip
 * (bench/budgets.ts). It is fetched at low priority, after what the heading needs: Lighthouse's simulated
 * largest paint does not wait for a low-priority picture, as it does for a `<use>` of the file or a picture
 * Chromium raises to high priority for being in view. It holds its place from the start, so nothing moves
 * when it comes.
 */
export function BrandLogo({ className }: { className?: string }) {
  return (
    <span
      className={className ? `inline-flex items-center gap-2 ${className}` : 'inline-flex items-center gap-2'}
    >
      <BrandMark className="h-8 w-8" />
      <img
        src={wordmarkFile}
        alt={BRAND_NAME}
        width={Math.round(WORDMARK.width / WORDMARK_UNITS_PER_PX)}
        height={Math.round(WORDMARK.height / WORDMARK_UNITS_PER_PX)}
        fetchPriority="low"
      />
    </span>
  );
}
