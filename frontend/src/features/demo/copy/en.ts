// Defines the shape the Dutch copy is typed against; in the dialogs' chunk, out of the first download.
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
