import { useLanguage } from '../../../i18n/language-context';
import { type DealItem, discountPercentOf } from '../demo-data';

/** A deal as a tappable row: name, size and discount label on the left, offer and regular price on the right. */
export function DealButton({ deal, onOpen }: { deal: DealItem; onOpen: (deal: DealItem) => void }) {
  const { messages, format } = useLanguage();
  const copy = messages.demo;
  return (
    <button
      type="button"
      onClick={() => onOpen(deal)}
      className="flex w-full items-start justify-between gap-3 rounded-xl bg-white px-3 py-3 text-left ring-1 ring-stone-200 transition-colors hover:bg-brand-50 hover:ring-brand-600 focus-visible:outline-3 focus-visible:outline-brand-700"
    >
      <span className="min-w-0">
        <span className="block font-semibold">{copy.products[deal.product]}</span>{' '}
        <span className="mt-1 flex flex-wrap items-center gap-2 text-sm text-stone-600">
          {format.size(deal.size.amount, deal.size.unit)}{' '}
          <span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-bold whitespace-nowrap text-white">
            {copy.discountOff(format.percent(discountPercentOf(deal)))}
          </span>
        </span>
      </span>{' '}
      <span className="shrink-0 text-right">
        <span className="block font-bold text-brand-800">{format.euro(deal.bonusPrice)}</span>{' '}
        <span className="block text-xs text-stone-500 line-through">
          <span className="sr-only">{copy.wasPrice(format.euro(deal.originalPrice))}</span>
          <span aria-hidden="true">{format.euro(deal.originalPrice)}</span>
        </span>
      </span>
    </button>
  );
}
