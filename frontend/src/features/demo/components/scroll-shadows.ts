/**
 * For a list that scrolls when its items do not fit: a shadow along each edge with more behind it. Two
 * shadows are fixed to the list's edges, each hidden under a white cover that moves with the content and
 * reaches the edge only when the list is scrolled to that end, so a list that fits shows none. The items
 * must have no background of their own, or they hide the shadows. Plain CSS: no script measures anything.
 */
export const SCROLL_SHADOWS =
  '[background:linear-gradient(#fff_30%,#fff0)_top/100%_2rem_no-repeat_local,linear-gradient(#fff0,#fff_70%)_bottom/100%_2rem_no-repeat_local,radial-gradient(farthest-side_at_50%_0,#0003,#0000)_top/100%_0.75rem_no-repeat,radial-gradient(farthest-side_at_50%_100%,#0003,#0000)_bottom/100%_0.75rem_no-repeat]';
