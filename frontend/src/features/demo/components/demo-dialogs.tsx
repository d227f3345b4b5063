import { ModalDialog } from '@/components/modal-dialog';
import { dialogCopy } from '@/features/demo/copy/dialog-copy';
import * as demo from '@/features/demo/demo-data';
import { useLanguage } from '@/i18n/language-context';
import { SCROLL_SHADOWS } from './scroll-shadows';

// One chunk, loaded once a visitor reaches for a dialog.
export function DealDialog({ deal, onClose }: { deal: demo.DealItem | null; onClose: () => void }) {
  const { locale, messages, format } = useLanguage();
  const { dealDialog: copy, close } = dialogCopy[locale];
  const rows = (item: demo.DealItem): [string, string][] => {
    const unitPrice = demo.unitPriceOf(item);
    return [
      [copy.store, demo.bestBasket.store],
      [copy.discount, messages.demo.discountOff(format.percent(demo.discountPercentOf(item)))],
      [copy.bonusPrice, format.euro(item.bonusPrice)],
      [copy.originalPrice, format.euro(item.originalPrice)],
      [copy.size, format.size(item.size.amount, item.size.unit)],
      [copy.unitPrice, `${format.euro(unitPrice.price)} ${copy.perUnit[unitPrice.per]}`],
      [copy.quantity, '1'],
      [copy.savings, format.euro(demo.savingsOf(item))],
      [copy.validFrom, format.dayMonth(demo.DEMO_WEEK.from)],
      [copy.validUntil, format.dayMonth(demo.DEMO_WEEK.until)],
    ];
  };
  return (
    <ModalDialog
      open={deal !== null}
      onClose={onClose}
      title={deal ? messages.demo.products[deal.product] : ''}
      closeLabel={close}
    >
      {deal && (
        <dl className="divide-y divide-stone-200 rounded-xl ring-1 ring-stone-200">
          {rows(deal).map(([label, value]) => (
            <div key={label} className="flex justify-between gap-4 px-4 py-2">
              <dt className="text-stone-600">{label}</dt>
              <dd className="text-right font-semibold">{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </ModalDialog>
  );
}

export function BasketDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { locale, messages, format } = useLanguage();
  const { basketDialog: copy, close } = dialogCopy[locale];
  const { store, items } = demo.alternativeBasket;
  const totals = demo.basketTotals(items);
  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      title={copy.title(store)}
      description={copy.description}
      closeLabel={close}
    >
      <ul
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable list must be focusable to scroll it by keyboard
        tabIndex={0}
        aria-label={copy.title(store)}
        className={`max-h-60 divide-y divide-stone-200 overflow-y-auto rounded-xl ring-1 ring-stone-200 focus-visible:outline-3 focus-visible:outline-brand-700 ${SCROLL_SHADOWS}`}
      >
        {items.map((item) => (
          <li key={item.product} className="flex items-center justify-between gap-4 px-4 py-3">
            <span className="min-w-0 font-semibold">{messages.demo.products[item.product]}</span>{' '}
            <span className="shrink-0 text-right text-sm">
              <span className="block font-bold">{format.euro(item.bonusPrice)}</span>{' '}
              <span className="block whitespace-nowrap text-stone-600">
                {copy.savings} {format.euro(demo.savingsOf(item))}
              </span>
            </span>
          </li>
        ))}
      </ul>
      <dl className="mt-4 space-y-1">
        <div className="flex justify-between text-lg font-bold">
          <dt>{copy.total}</dt>
          <dd>{format.euro(totals.total)}</dd>
        </div>
        <div className="flex justify-between text-brand-800">
          <dt>{copy.totalSavings}</dt>
          <dd className="font-semibold">{format.euro(totals.savings)}</dd>
        </div>
      </dl>
    </ModalDialog>
  );
}
