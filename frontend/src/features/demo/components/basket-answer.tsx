import { Icon } from '../../../components/icons';
import { supermarketName } from '../../../config/supermarkets';
import { useLanguage } from '../../../i18n/language-context';
import { alternativeBasket, basketTotals, bestBasket, type DealItem, missingProducts } from '../demo-data';
import { ChatBubble } from './chat-bubble';
import { DealButton } from './deal-button';

/** Basket mode: the cheapest store for the whole basket, its deals, the runner-up and what was not found. */
export function BasketAnswer({
  onOpenDeal,
  onOpenAlternative,
}: {
  onOpenDeal: (deal: DealItem) => void;
  onOpenAlternative: () => void;
}) {
  const { messages, format } = useLanguage();
  const copy = messages.demo;
  const best = basketTotals(bestBasket.deals);
  const alternative = basketTotals(alternativeBasket.items);
  const bestStore = supermarketName(bestBasket.store);
  const alternativeStore = supermarketName(alternativeBasket.store);

  return (
    <>
      <ChatBubble from="visitor">{copy.basketQuestion}</ChatBubble>
      <ChatBubble from="mandje">
        <p>{copy.basketAnswer}</p>

        <dl className="mt-3 grid grid-cols-3 gap-2 text-center">
          {[
            [copy.summary.total, format.euro(best.total)],
            [copy.summary.savings, format.euro(best.savings)],
            [copy.summary.bestStore, bestStore],
          ].map(([label, value]) => (
            <div key={label} className="rounded-xl bg-white px-2 py-2 ring-1 ring-stone-200">
              <dt className="text-xs text-stone-600">{label}</dt>
              <dd className="font-bold text-brand-800">{value}</dd>
            </div>
          ))}
        </dl>

        <h3 className="mt-4 font-semibold">{copy.dealsTitle(bestStore)}</h3>
        <p className="text-sm text-stone-600">{copy.dealsHint}</p>
        <ul className="mt-2 max-h-64 space-y-2 overflow-y-auto p-1">
          {bestBasket.deals.map((deal) => (
            <li key={deal.id}>
              <DealButton deal={deal} onOpen={onOpenDeal} />
            </li>
          ))}
        </ul>

        <button
          type="button"
          onClick={onOpenAlternative}
          className="mt-4 flex w-full items-center justify-between gap-3 rounded-xl border-2 border-orange-400 bg-orange-50 px-4 py-3 text-left text-orange-950 transition-colors hover:bg-orange-100 focus-visible:outline-3 focus-visible:outline-orange-700"
        >
          <span>
            <span className="block font-bold">{copy.alternative.title(alternativeStore)}</span>{' '}
            <span className="block text-sm">
              {copy.alternative.available(alternativeBasket.items.length)}
            </span>
          </span>{' '}
          <span className="shrink-0 text-right">
            <span className="block font-bold">{format.euro(alternative.total)}</span>{' '}
            <span className="block text-sm">{copy.alternative.save(format.euro(alternative.savings))}</span>
          </span>
        </button>

        <h3 className="mt-4 font-semibold">{copy.notFoundTitle}</h3>
        <ul className="mt-1 space-y-1 text-sm text-stone-700">
          {missingProducts.map((product) => (
            <li key={product} className="flex items-center gap-2">
              <Icon name="close" className="h-4 w-4 text-red-700" />
              {copy.missingProducts[product]}
            </li>
          ))}
        </ul>
      </ChatBubble>
    </>
  );
}
