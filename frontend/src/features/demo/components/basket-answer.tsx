import { useId } from 'react';
import type { DealItem } from '@/features/demo/demo-data';
import { alternativeBasket, basketTotals, bestBasket, missingProducts } from '@/features/demo/demo-data';
import { useLanguage } from '@/i18n/language-context';
import { ChatBubble, DealButton } from './product-answer';
import { SCROLL_SHADOWS } from './scroll-shadows';

export function BasketAnswer(props: { onOpenDeal: (deal: DealItem) => void; onOpenAlternative: () => void }) {
  const { messages, format } = useLanguage();
  const copy = messages.demo;
  const bestId = useId();
  const comparisonId = useId();
  const best = basketTotals(bestBasket.deals);
  const alternative = basketTotals(alternativeBasket.items);
  return (
    <>
      <ChatBubble from="visitor">{copy.basketQuestion}</ChatBubble>
      <ChatBubble from="mandje">
        <p>{copy.basketAnswer}</p>
        {/* biome-ignore lint/a11y/useSemanticElements: a group of an answer's parts, not of form fields (<fieldset>) */}
        <div
          role="group"
          aria-labelledby={bestId}
          className="mt-3 rounded-2xl bg-white p-2.5 ring-2 ring-brand-600 sm:p-3"
        >
          <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 px-1">
            <h3 id={bestId} className="font-semibold">
              {copy.dealsTitle(bestBasket.store)}
            </h3>
            <span className="rounded-full bg-brand-700 px-2.5 py-0.5 text-xs font-bold text-white">
              {copy.cheapestLabel}
            </span>
          </div>
          <dl className="mt-2 grid grid-cols-3 gap-1.5 text-center sm:gap-2">
            {[
              [copy.summary.total, format.euro(best.total)],
              [copy.summary.savings, format.euro(best.savings)],
              [copy.summary.bestStore, bestBasket.store],
            ].map(([label, value]) => (
              <div key={label} className="rounded-xl bg-brand-50 px-1 py-2">
                <dt className="text-xs text-stone-600">{label}</dt>
                <dd className="font-bold whitespace-nowrap text-brand-800">{value}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-3 px-1 text-sm text-stone-600">{copy.dealsHint}</p>
          <ul className={`mt-1 max-h-64 space-y-2 overflow-y-auto p-1 ${SCROLL_SHADOWS}`}>
            {bestBasket.deals.map((deal) => (
              <li key={deal.product}>
                <DealButton deal={deal} onOpen={props.onOpenDeal} />
              </li>
            ))}
          </ul>
        </div>
        <p id={comparisonId} className="mt-4 text-sm text-pretty text-stone-700">
          {copy.alternativeComparison({
            store: alternativeBasket.store,
            amount: format.euro(alternative.total - best.total),
            cheapest: bestBasket.store,
          })}
        </p>
        <button
          type="button"
          onClick={props.onOpenAlternative}
          aria-describedby={comparisonId}
          className="mt-2 block w-full rounded-2xl bg-orange-50 px-3 py-2.5 text-left text-stone-700 ring-1 ring-orange-300 transition-colors hover:ring-brand-600 focus-visible:outline-3 focus-visible:outline-brand-700 sm:px-4"
        >
          <span className="block font-semibold text-stone-900">
            {copy.alternative.title(alternativeBasket.store)}
          </span>{' '}
          <span className="flex flex-wrap justify-between gap-x-3 text-sm">
            <span>{copy.alternative.available(alternativeBasket.items.length)}</span>{' '}
            <span className="font-semibold whitespace-nowrap text-stone-900">
              {format.euro(alternative.total)}
            </span>
          </span>{' '}
          <span className="block text-sm">{copy.alternative.save(format.euro(alternative.savings))}</span>
        </button>
        <h3 className="mt-4 font-semibold">{copy.notFoundTitle}</h3>
        <p className="text-sm text-stone-600">{copy.notFoundNote}</p>
        <ul aria-label={copy.notFoundTitle} className="mt-2 flex flex-wrap gap-1.5 text-sm">
          {missingProducts.map((product) => (
            <li
              key={product}
              className="rounded-full bg-white px-3 py-1 text-stone-700 ring-1 ring-stone-200"
            >
              {copy.missingProducts[product]}
            </li>
          ))}
        </ul>
      </ChatBubble>
    </>
  );
}
