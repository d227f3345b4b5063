/* Written by frontend/scripts/draw-wordmark.ts (`npm run font`): edit the script, not this file. */

/**
 * "Mandje" in the brand's typeface at weight 700, tracking -0.025 em, drawn as one path
 * from the page's font file (frontend/scripts/wordmark-path.ts) in wordmark.svg: the ink's box, in units
 * of 1/100 em.
 */
export const WORDMARK = { width: 340, height: 94 } as const;
