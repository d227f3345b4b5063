/** In the order the page shows them, by their own spelling. */
export const SUPERMARKETS = [
  { id: 'albert-heijn', name: 'Albert Heijn' },
  { id: 'jumbo', name: 'Jumbo' },
  { id: 'lidl', name: 'Lidl' },
  { id: 'plus', name: 'Plus' },
  { id: 'aldi', name: 'Aldi' },
  { id: 'hoogvliet', name: 'Hoogvliet' },
  { id: 'spar', name: 'SPAR' },
  { id: 'ekoplaza', name: 'Ekoplaza' },
  { id: 'dirk', name: 'Dirk' },
  { id: 'vomar', name: 'Vomar' },
] as const;

export type SupermarketId = (typeof SUPERMARKETS)[number]['id'];

export function supermarketName(id: SupermarketId): string {
  return SUPERMARKETS.find((supermarket) => supermarket.id === id)?.name ?? id;
}
