import { supermarketName } from '@/config/supermarkets';
import { type DealItem, productAnswerDeal, savingsOf } from '@/features/demo/demo-data';
import { useLanguage } from '@/i18n/language-context';
import { ChatBubble } from './chat-bubble';
import { DealButton } from './deal-button';

export function ProductAnswerText() {
  const { messages, format } = useLanguage();
  const copy = messages.demo;
  const deal = productAnswerDeal;
  return (
    <p>
      {copy.productAnswer({
        store: supermarketName(deal.store),
        product: copy.products[deal.product],
        bonusPrice: format.euro(deal.bonusPrice),
        originalPrice: format.euro(deal.originalPrice),
        savings: format.euro(savingsOf(deal)),
      })}
    </p>
  );
}

export function ProductAnswer({ onOpenDeal }: { onOpenDeal: (deal: DealItem) => void }) {
  const { messages } = useLanguage();
  const copy = messages.demo;
  const deal = productAnswerDeal;
  return (
    <>
      <ChatBubble from="visitor">{copy.productQuestion}</ChatBubble>
      <ChatBubble from="mandje">
        <ProductAnswerText />
        <div className="mt-3 rounded-xl bg-white">
          <DealButton deal={deal} onOpen={onOpenDeal} />
        </div>
      </ChatBubble>
    </>
  );
}
