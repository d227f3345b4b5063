import { type DealItem, discountPercentOf } from '@/features/demo/demo-data';
import { useLanguage } from '@/i18n/language-context';

export function DealButton({ deal, onOpen }: { deal: DealItem; onOpen: (deal: DealItem) => void }) {
  const { messages, format } = useLanguage();
  const copy = messages.demo;
  return (
    <button
      type="button"
      onClick={() => onOpen(deal)}
      className="flex w-full items-center justify-between gap-3 rounded-xl px-3 py-2.5 text-left ring-1 ring-stone-200 transition-colors hover:bg-brand-50 hover:ring-brand-600 focus-visible:outline-3 focus-visible:outline-brand-700"
    >
      <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
        <span className="font-semibold">{copy.products[deal.product]}</span>{' '}
        <span className="text-sm text-stone-600">{format.size(deal.size.amount, deal.size.unit)}</span>{' '}
        <span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-bold whitespace-nowrap text-white">
          {copy.discountOff(format.percent(discountPercentOf(deal)))}
        </span>
      </span>{' '}
      <span className="flex shrink-0 flex-col items-end sm:flex-row sm:items-baseline sm:gap-2">
        <span className="font-bold text-brand-800">{format.euro(deal.bonusPrice)}</span>{' '}
        <span className="text-xs text-stone-500 line-through">
          <span className="sr-only">{copy.wasPrice(format.euro(deal.originalPrice))}</span>
          <span aria-hidden="true">{format.euro(deal.originalPrice)}</span>
        </span>
      </span>
    </button>
  );
}
