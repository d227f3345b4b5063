import type { SupermarketId } from '@/config/supermarkets';
import type { Cents, IsoDate, SizeUnit } from '@/i18n/format';

export type { Cents, IsoDate, SizeUnit };

/**
 * The canned demo: every figure the chat shows is here, as numbers. Money is in euro cents so that sums
 * are exact; savings, discounts, unit prices and totals are derived, never written down twice.
 */

export type ProductKey = 'milk' | 'bread' | 'pasta' | 'apples';
export type MissingProductKey = 'quinoa' | 'coconutOil' | 'matchaPowder';

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

/** The example week the demo's offers are from; the chat's "this week" is this week. */
export const DEMO_WEEK = { from: '2025-08-25', until: '2025-08-31' } as const satisfies Record<
  'from' | 'until',
  IsoDate
>;

const validity = { validFrom: DEMO_WEEK.from, validUntil: DEMO_WEEK.until } satisfies Pick<
  DealItem,
  'validFrom' | 'validUntil'
>;

/** The cheapest basket: four deals at Jumbo. */
export const bestBasket = {
  store: 'jumbo',
  deals: [
    {
      id: 1,
      product: 'milk',
      store: 'jumbo',
      bonusPrice: 120,
      originalPrice: 165,
      size: { amount: 1, unit: 'liter' },
      ...validity,
    },
    {
      id: 2,
      product: 'bread',
      store: 'jumbo',
      bonusPrice: 332,
      originalPrice: 397,
      size: { amount: 800, unit: 'gram' },
      ...validity,
    },
    {
      id: 3,
      product: 'pasta',
      store: 'jumbo',
      bonusPrice: 179,
      originalPrice: 219,
      size: { amount: 1, unit: 'kilogram' },
      ...validity,
    },
    {
      id: 4,
      product: 'apples',
      store: 'jumbo',
      bonusPrice: 619,
      originalPrice: 889,
      size: { amount: 2, unit: 'kilogram' },
      ...validity,
    },
  ],
} as const satisfies { store: SupermarketId; deals: readonly DealItem[] };

/** The answer in product mode: the milk deal. */
export const productAnswerDeal: DealItem = bestBasket.deals[0];

/** The same basket at the runner-up store, shown as an alternative. */
export const alternativeBasket = {
  store: 'albert-heijn',
  items: [
    { product: 'milk', store: 'albert-heijn', bonusPrice: 159, originalPrice: 179 },
    { product: 'bread', store: 'albert-heijn', bonusPrice: 399, originalPrice: 449 },
    { product: 'pasta', store: 'albert-heijn', bonusPrice: 249, originalPrice: 279 },
    { product: 'apples', store: 'albert-heijn', bonusPrice: 1068, originalPrice: 1193 },
  ],
} as const satisfies { store: SupermarketId; items: readonly PricedItem[] };

/** Products of the basket that no supermarket had on offer. */
export const missingProducts: readonly MissingProductKey[] = ['quinoa', 'coconutOil', 'matchaPowder'];

/** Every deal in the demo has the same quantity: one of each. */
export const DEAL_QUANTITY = 1;

export function savingsOf(item: PricedItem): Cents {
  return item.originalPrice - item.bonusPrice;
}

/** Whole percent off the regular price, as the shelf label shows it. */
export function discountPercentOf(item: PricedItem): number {
  return Math.round((savingsOf(item) / item.originalPrice) * 100);
}

/** Price per litre or per kilogram (grams are counted in kilograms, as shelf labels do). */
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
