import type { Locale } from '#contract/locales';

// In the dialogs' chunk, out of the first download; English defines the shape the Dutch is typed against.
const en = {
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
  },
  basketDialog: {
    title: (store: string) => `Your basket at ${store}`,
    description: "The same products at this store, with this week's deals.",
    savings: 'Saving',
    total: 'Total',
    totalSavings: 'Savings',
  },
  close: 'Close',
};

const nl = {
  dealDialog: {
    store: 'Winkel',
    discount: 'Korting',
    bonusPrice: 'Aanbiedingsprijs',
    originalPrice: 'Normale prijs',
    size: 'Inhoud',
    unitPrice: 'Prijs per eenheid',
    perUnit: { liter: 'per liter', kilogram: 'per kilo' },
    quantity: 'Aantal',
    savings: 'Je bespaart',
    validFrom: 'Geldig vanaf',
    validUntil: 'Geldig tot en met',
  },
  basketDialog: {
    title: (store) => `Je mandje bij ${store}`,
    description: 'Dezelfde producten bij deze winkel, met de aanbiedingen van deze week.',
    savings: 'Besparing',
    total: 'Totaal',
    totalSavings: 'Totale besparing',
  },
  close: 'Sluiten',
} satisfies typeof en;

export const dialogCopy = { nl, en } satisfies Record<Locale, typeof en>;
