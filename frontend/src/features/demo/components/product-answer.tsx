import type { ReactNode } from 'react';
import { BrandMark } from '@/components/brand-logo';
import { bestBasket, type DealItem, discountPercentOf, savingsOf } from '@/features/demo/demo-data';
import { useLanguage } from '@/i18n/language-context';

// The product view's one deal, and the still's.
const milk = bestBasket.deals[0];

export function ChatBubble({ from, children }: { from: 'visitor' | 'mandje'; children: ReactNode }) {
  const { messages } = useLanguage();
  const visitor = from === 'visitor';
  return (
    <div className={visitor ? 'flex justify-end' : 'flex items-start gap-2'}>
      {/* On a phone the answer takes the whole width, as chat apps show an assistant's: its cards need it. */}
      {!visitor && <BrandMark className="mt-1 hidden h-7 w-7 shrink-0 sm:block" />}
      <div
        className={
          visitor
            ? 'max-w-[85%] rounded-2xl rounded-br-md bg-brand-700 px-4 py-2.5 text-white'
            : 'min-w-0 flex-1 text-stone-900 sm:max-w-[90%] sm:rounded-2xl sm:rounded-tl-md sm:bg-stone-100 sm:px-4 sm:py-3'
        }
      >
        <span className="sr-only">{visitor ? messages.demo.senderYou : messages.demo.senderMandje}: </span>
        {children}
      </div>
    </div>
  );
}

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

/** The product view's exchange, the milk deal shown as `deal`. */
function ProductExchange({ deal }: { deal: ReactNode }) {
  const { messages, format } = useLanguage();
  const copy = messages.demo;
  return (
    <>
      <ChatBubble from="visitor">{copy.productQuestion}</ChatBubble>
      <ChatBubble from="mandje">
        <p>
          {copy.productAnswer({
            store: bestBasket.store,
            product: copy.products[milk.product],
            bonusPrice: format.euro(milk.bonusPrice),
            originalPrice: format.euro(milk.originalPrice),
            savings: format.euro(savingsOf(milk)),
          })}
        </p>
        {deal}
      </ChatBubble>
    </>
  );
}

export const ProductAnswer = ({ onOpenDeal }: { onOpenDeal: (deal: DealItem) => void }) => (
  <ProductExchange
    deal={
      <div className="mt-3 rounded-xl bg-white">
        <DealButton deal={milk} onOpen={onOpenDeal} />
      </div>
    }
  />
);

/** A still of the demo for the first screen, drawn from its own figures; nothing in it is interactive. */
export function DemoStill() {
  const { messages, format } = useLanguage();
  const copy = messages.demo;
  return (
    <figure className="mx-auto w-full max-w-md text-left" aria-labelledby="demo-still-caption">
      {/* Hidden from screen readers: the caption and the linked demo say it, not twice. */}
      <div
        aria-hidden="true"
        className="overflow-hidden rounded-3xl border border-stone-200 bg-white shadow-xl shadow-brand-900/10"
      >
        <div className="flex items-center justify-between gap-3 border-b border-stone-100 px-4 py-3">
          <p className="text-sm font-semibold whitespace-nowrap text-stone-900">{copy.assistantName}</p>
          <p className="hidden text-xs text-stone-600 min-[400px]:block">{copy.assistantStatus}</p>
        </div>
        <div className="space-y-3 px-4 py-4 text-[0.9375rem] leading-snug">
          <ProductExchange
            deal={
              <div className="mt-3 flex items-center justify-between gap-3 rounded-xl bg-white px-3 py-2 ring-1 ring-stone-200">
                <span className="min-w-0">
                  <span className="block truncate text-sm font-medium">{copy.products[milk.product]}</span>
                  <span className="block text-xs text-stone-600">
                    {bestBasket.store} · {format.size(milk.size.amount, milk.size.unit)}
                  </span>
                </span>
                <span className="shrink-0 text-right">
                  <span className="block font-semibold whitespace-nowrap text-brand-800">
                    {format.euro(milk.bonusPrice)}
                  </span>
                  <span className="block text-xs whitespace-nowrap text-stone-600">
                    {copy.discountOff(format.percent(discountPercentOf(milk)))}
                  </span>
                </span>
              </div>
            }
          />
        </div>
      </div>
      <figcaption id="demo-still-caption" className="mt-3 text-sm text-pretty text-stone-600">
        {copy.intro}{' '}
        <a
          href="#demo"
          className="font-medium whitespace-nowrap text-brand-800 underline decoration-brand-600 underline-offset-4"
        >
          {copy.title}
        </a>
      </figcaption>
    </figure>
  );
}
