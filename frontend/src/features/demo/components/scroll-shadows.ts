/**
 * For a list that scrolls when its items do not fit: a shadow along each edge with more behind it. Two
 * shadows are fixed to the list's edges, each hidden under a cover of the card's own ground that moves with
 * the content and reaches the edge only when the list is scrolled to that end, so a list that fits shows
 * none. The items must have no background of their own, or they hide the shadows. Ground and shadow are
 * the palette's, so the dark theme has its own (styles.css). Plain CSS: no script measures anything.
 */
// One literal, so that Tailwind finds the class in this file: the cover is the card's ground (bg-white),
// the shadow a quarter of the palette's darkest text colour, which the dark theme turns light.
export const SCROLL_SHADOWS =
  '[background:linear-gradient(var(--color-white)_30%,transparent)_top/100%_2rem_no-repeat_local,linear-gradient(transparent,var(--color-white)_70%)_bottom/100%_2rem_no-repeat_local,radial-gradient(farthest-side_at_50%_0,color-mix(in_oklab,var(--color-stone-900)_25%,transparent),transparent)_top/100%_0.75rem_no-repeat,radial-gradient(farthest-side_at_50%_100%,color-mix(in_oklab,var(--color-stone-900)_25%,transparent),transparent)_bottom/100%_0.75rem_no-repeat]';
