import type { Supermarket } from '@/config/supermarkets';
import type { Cents, IsoDate, SizeUnit } from '@/i18n/format';

// Every figure the chat shows, in cents; savings, discounts, unit prices and totals are derived.
export type ProductKey = 'milk' | 'bread' | 'pasta' | 'apples';
export type PricedItem = { product: ProductKey; bonusPrice: Cents; originalPrice: Cents };
/** A deal of the best basket: at its store, valid in DEMO_WEEK, one of each. */
export type DealItem = PricedItem & { size: { amount: number; unit: SizeUnit } };

export const DEMO_WEEK: Record<'from' | 'until', IsoDate> = { from: '2025-08-25', until: '2025-08-31' };

export const bestBasket = {
  store: 'Jumbo',
  deals: [
    { product: 'milk', bonusPrice: 120, originalPrice: 165, size: { amount: 1, unit: 'liter' } },
    { product: 'bread', bonusPrice: 332, originalPrice: 397, size: { amount: 800, unit: 'gram' } },
    { product: 'pasta', bonusPrice: 179, originalPrice: 219, size: { amount: 1, unit: 'kilogram' } },
    { product: 'apples', bonusPrice: 619, originalPrice: 889, size: { amount: 2, unit: 'kilogram' } },
  ],
} as const satisfies { store: Supermarket; deals: readonly DealItem[] };

export const alternativeBasket = {
  store: 'Albert Heijn',
  items: [
    { product: 'milk', bonusPrice: 159, originalPrice: 179 },
    { product: 'bread', bonusPrice: 399, originalPrice: 449 },
    { product: 'pasta', bonusPrice: 249, originalPrice: 279 },
    { product: 'apples', bonusPrice: 1068, originalPrice: 1193 },
  ],
} as const satisfies { store: Supermarket; items: readonly PricedItem[] };

export const missingProducts = ['quinoa', 'coconutOil', 'matchaPowder'] as const;

export const savingsOf = (item: PricedItem): Cents => item.originalPrice - item.bonusPrice;

export const discountPercentOf = (item: PricedItem) =>
  Math.round((savingsOf(item) / item.originalPrice) * 100);

/** Grams are priced per kilogram, as shelf labels do. */
export function unitPriceOf({ bonusPrice, size }: DealItem): { price: Cents; per: 'liter' | 'kilogram' } {
  if (size.unit === 'gram') return { price: Math.round(bonusPrice / (size.amount / 1000)), per: 'kilogram' };
  return { price: Math.round(bonusPrice / size.amount), per: size.unit };
}

export const basketTotals = (items: readonly PricedItem[]): { total: Cents; savings: Cents } => ({
  total: items.reduce((sum, item) => sum + item.bonusPrice, 0),
  savings: items.reduce((sum, item) => sum + savingsOf(item), 0),
});
