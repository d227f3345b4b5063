/** The ink's box of wordmark.svg ("Mandje" in the brand's typeface, weight 700), in units of 1/100 em. */
export const WORDMARK = { width: 340, height: 94 } as const;
