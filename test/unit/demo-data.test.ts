import { describe, expect, it } from 'vitest';
import {
  alternativeBasket,
  basketTotals,
  bestBasket,
  DEAL_QUANTITY,
  discountPercentOf,
  missingProducts,
  productAnswerDeal,
  savingsOf,
  unitPriceOf,
} from '../../frontend/src/features/demo/demo-data';

describe('demo data', () => {
  it('answers product mode with Jumbo milk at 1.20 instead of 1.65, saving 0.45', () => {
    expect(productAnswerDeal).toMatchObject({
      product: 'milk',
      store: 'jumbo',
      bonusPrice: 120,
      originalPrice: 165,
    });
    expect(savingsOf(productAnswerDeal)).toBe(45);
  });

  it('makes Jumbo the best basket: total 12.50, savings 4.20', () => {
    expect(bestBasket.store).toBe('jumbo');
    expect(basketTotals(bestBasket.deals)).toEqual({ total: 1250, savings: 420 });
  });

  it('lists milk, bread, pasta and apples at 27%, 16%, 18% and 30% off', () => {
    expect(bestBasket.deals.map((deal) => deal.product)).toEqual(['milk', 'bread', 'pasta', 'apples']);
    expect(bestBasket.deals.map(discountPercentOf)).toEqual([27, 16, 18, 30]);
  });

  it('offers Albert Heijn as the alternative: 4 products, 18.75, saving 2.25', () => {
    expect(alternativeBasket.store).toBe('albert-heijn');
    expect(alternativeBasket.items).toHaveLength(4);
    expect(basketTotals(alternativeBasket.items)).toEqual({ total: 1875, savings: 225 });
  });

  it('did not find quinoa, coconut oil and matcha powder', () => {
    expect(missingProducts).toEqual(['quinoa', 'coconutOil', 'matchaPowder']);
  });

  it('makes every deal valid from 25 to 31 August 2025, one of each', () => {
    for (const deal of bestBasket.deals) {
      expect([deal.validFrom, deal.validUntil]).toEqual(['2025-08-25', '2025-08-31']);
    }
    expect(DEAL_QUANTITY).toBe(1);
  });

  it('prices grams per kilogram and litres per litre', () => {
    const [milk, bread] = bestBasket.deals;
    expect(unitPriceOf(milk)).toEqual({ price: 120, per: 'liter' });
    expect(unitPriceOf(bread)).toEqual({ price: 415, per: 'kilogram' });
  });
});
