import type { DialogCopy } from './en';

export const nl = {
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
    close: 'Sluiten',
  },
  basketDialog: {
    title: (store) => `Je mandje bij ${store}`,
    description: 'Dezelfde producten bij deze winkel, met de aanbiedingen van deze week.',
    savings: 'Besparing',
    total: 'Totaal',
    totalSavings: 'Totale besparing',
    close: 'Sluiten',
  },
} satisfies DialogCopy;
