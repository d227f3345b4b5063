/**
 * The supermarkets Mandje compares, in the order the page shows them, by their own spelling, each with
 * its chain's main colour as a class for the small dot beside its name (the page imitates no logo; a
 * class, as the Content-Security-Policy allows no inline style attributes).
 */
export const SUPERMARKETS = [
  { id: 'albert-heijn', name: 'Albert Heijn', dot: 'bg-[#0079c1]' },
  { id: 'jumbo', name: 'Jumbo', dot: 'bg-[#ffd400]' },
  { id: 'lidl', name: 'Lidl', dot: 'bg-[#0050aa]' },
  { id: 'plus', name: 'Plus', dot: 'bg-[#43801a]' },
  { id: 'aldi', name: 'Aldi', dot: 'bg-[#00005f]' },
  { id: 'hoogvliet', name: 'Hoogvliet', dot: 'bg-[#003a8c]' },
  { id: 'spar', name: 'SPAR', dot: 'bg-[#00843d]' },
  { id: 'ekoplaza', name: 'Ekoplaza', dot: 'bg-[#4d7d23]' },
  { id: 'dirk', name: 'Dirk', dot: 'bg-[#e30613]' },
  { id: 'vomar', name: 'Vomar', dot: 'bg-[#e4002b]' },
] as const;

export type SupermarketId = (typeof SUPERMARKETS)[number]['id'];

export function supermarketName(id: SupermarketId): string {
  return SUPERMARKETS.find((supermarket) => supermarket.id === id)?.name ?? id;
}
