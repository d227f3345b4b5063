import type { SupermarketId } from '@/config/supermarkets';
import type { Cents, IsoDate, SizeUnit } from '@/i18n/format';

// Every figure the chat shows, in cents; savings, discounts, unit prices and totals are derived.
export type ProductKey = 'milk' | 'bread' | 'pasta' | 'apples';

export interface PricedItem {
  product: ProductKey;
  store: SupermarketId;
  bonusPrice: Cents;
  originalPrice: Cents;
}

export interface DealItem extends PricedItem {
  id: number;
  size: { amount: number; unit: SizeUnit };
  validFrom: IsoDate;
  validUntil: IsoDate;
}

export const DEMO_WEEK: Record<'from' | 'until', IsoDate> = { from: '2025-08-25', until: '2025-08-31' };

const validity = { validFrom: DEMO_WEEK.from, validUntil: DEMO_WEEK.until };
const jumboDeal = (
  id: number,
  product: ProductKey,
  bonusPrice: Cents,
  originalPrice: Cents,
  size: DealItem['size'],
): DealItem => ({ id, product, store: 'jumbo', bonusPrice, originalPrice, size, ...validity });

export const bestBasket = {
  store: 'jumbo',
  deals: [
    jumboDeal(1, 'milk', 120, 165, { amount: 1, unit: 'liter' }),
    jumboDeal(2, 'bread', 332, 397, { amount: 800, unit: 'gram' }),
    jumboDeal(3, 'pasta', 179, 219, { amount: 1, unit: 'kilogram' }),
    jumboDeal(4, 'apples', 619, 889, { amount: 2, unit: 'kilogram' }),
  ],
} as const satisfies { store: SupermarketId; deals: readonly DealItem[] };

export const productAnswerDeal = bestBasket.deals[0];

export const alternativeBasket = {
  store: 'albert-heijn',
  items: [
    { product: 'milk', store: 'albert-heijn', bonusPrice: 159, originalPrice: 179 },
    { product: 'bread', store: 'albert-heijn', bonusPrice: 399, originalPrice: 449 },
    { product: 'pasta', store: 'albert-heijn', bonusPrice: 249, originalPrice: 279 },
    { product: 'apples', store: 'albert-heijn', bonusPrice: 1068, originalPrice: 1193 },
  ],
} as const satisfies { store: SupermarketId; items: readonly PricedItem[] };

export const missingProducts = ['quinoa', 'coconutOil', 'matchaPowder'] as const;

export const DEAL_QUANTITY = 1;

export function savingsOf(item: PricedItem): Cents {
  return item.originalPrice - item.bonusPrice;
}

export function discountPercentOf(item: PricedItem): number {
  return Math.round((savingsOf(item) / item.originalPrice) * 100);
}

/** Grams are priced per kilogram, as shelf labels do. */
export function unitPriceOf(item: DealItem): { price: Cents; per: 'liter' | 'kilogram' } {
  const { amount, unit } = item.size;
  if (unit === 'gram') return { price: Math.round(item.bonusPrice / (amount / 1000)), per: 'kilogram' };
  return { price: Math.round(item.bonusPrice / amount), per: unit };
}

export function basketTotals(items: readonly PricedItem[]): { total: Cents; savings: Cents } {
  return items.reduce(
    (sum, item) => ({ total: sum.total + item.bonusPrice, savings: sum.savings + savingsOf(item) }),
    { total: 0, savings: 0 },
  );
}
