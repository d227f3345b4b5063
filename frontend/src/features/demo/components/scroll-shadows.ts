// A shadow along each edge with more behind it: covers of the card's ground scroll with the content and
// hide a shadow at its end. Items must have no background of their own. One literal, for Tailwind to find.
export const SCROLL_SHADOWS =
  '[background:linear-gradient(var(--color-white)_30%,transparent)_top/100%_2rem_no-repeat_local,linear-gradient(transparent,var(--color-white)_70%)_bottom/100%_2rem_no-repeat_local,radial-gradient(farthest-side_at_50%_0,color-mix(in_oklab,var(--color-stone-900)_25%,transparent),transparent)_top/100%_0.75rem_no-repeat,radial-gradient(farthest-side_at_50%_100%,color-mix(in_oklab,var(--color-stone-900)_25%,transparent),transparent)_bottom/100%_0.75rem_no-repeat]';
