/** In the order the page shows them, by their own spelling. */
export const SUPERMARKETS = [
  'Albert Heijn',
  'Jumbo',
  'Lidl',
  'Plus',
  'Aldi',
  'Hoogvliet',
  'SPAR',
  'Ekoplaza',
  'Dirk',
  'Vomar',
] as const;

export type Supermarket = (typeof SUPERMARKETS)[number];
