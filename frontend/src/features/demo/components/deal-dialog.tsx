import { ModalDialog } from '@/components/modal-dialog';
import { supermarketName } from '@/config/supermarkets';
import { dialogCopy } from '@/features/demo/copy/dialog-copy';
import {
  DEAL_QUANTITY,
  type DealItem,
  discountPercentOf,
  savingsOf,
  unitPriceOf,
} from '@/features/demo/demo-data';
import { useLanguage } from '@/i18n/language-context';

/** Every detail of one deal. Open while a deal is selected. */
export function DealDialog({ deal, onClose }: { deal: DealItem | null; onClose: () => void }) {
  const { locale, messages, format } = useLanguage();
  const copy = dialogCopy[locale].dealDialog;

  const rows = (item: DealItem): [string, string][] => {
    const unitPrice = unitPriceOf(item);
    return [
      [copy.store, supermarketName(item.store)],
      [copy.discount, messages.demo.discountOff(format.percent(discountPercentOf(item)))],
      [copy.bonusPrice, format.euro(item.bonusPrice)],
      [copy.originalPrice, format.euro(item.originalPrice)],
      [copy.size, format.size(item.size.amount, item.size.unit)],
      [copy.unitPrice, `${format.euro(unitPrice.price)} ${copy.perUnit[unitPrice.per]}`],
      [copy.quantity, String(DEAL_QUANTITY)],
      [copy.savings, format.euro(savingsOf(item))],
      [copy.validFrom, format.date(item.validFrom)],
      [copy.validUntil, format.date(item.validUntil)],
    ];
  };

  return (
    <ModalDialog
      open={deal !== null}
      onClose={onClose}
      title={deal ? messages.demo.products[deal.product] : ''}
      closeLabel={copy.close}
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
