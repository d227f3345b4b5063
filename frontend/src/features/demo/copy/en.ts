/**
 * The demo's dialogs in English: the details of a deal, and the basket at another store. This object
 * defines the shape and the Dutch copy is typed against it. It lives with the dialogs, in their chunk, so
 * the page's first download does not carry it.
 */
export const en = {
  dealDialog: {
    store: 'Store',
    discount: 'Discount',
    bonusPrice: 'Offer price',
    originalPrice: 'Regular price',
    size: 'Size',
    unitPrice: 'Unit price',
    perUnit: { liter: 'per litre', kilogram: 'per kg' },
    quantity: 'Quantity',
    savings: 'You save',
    validFrom: 'Valid from',
    validUntil: 'Valid until',
    close: 'Close',
  },
  basketDialog: {
    title: (store: string) => `Your basket at ${store}`,
    description: "The same products at this store, with this week's deals.",
    savings: 'Saving',
    total: 'Total',
    totalSavings: 'Savings',
    close: 'Close',
  },
};

export type DialogCopy = typeof en;
