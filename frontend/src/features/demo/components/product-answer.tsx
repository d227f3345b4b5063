import { supermarketName } from '../../../config/supermarkets';
import { useLanguage } from '../../../i18n/language-context';
import { type DealItem, productAnswerDeal, savingsOf } from '../demo-data';
import { ChatBubble } from './chat-bubble';
import { DealButton } from './deal-button';

/** Product mode: one question, the cheapest milk as the answer. */
export function ProductAnswer({ onOpenDeal }: { onOpenDeal: (deal: DealItem) => void }) {
  const { messages, format } = useLanguage();
  const copy = messages.demo;
  const deal = productAnswerDeal;
  return (
    <>
      <ChatBubble from="visitor">{copy.productQuestion}</ChatBubble>
      <ChatBubble from="mandje">
        <p>
          {copy.productAnswer({
            store: supermarketName(deal.store),
            product: copy.products[deal.product],
            bonusPrice: format.euro(deal.bonusPrice),
            originalPrice: format.euro(deal.originalPrice),
            savings: format.euro(savingsOf(deal)),
          })}
        </p>
        <div className="mt-3 rounded-xl bg-white">
          <DealButton deal={deal} onOpen={onOpenDeal} />
        </div>
      </ChatBubble>
    </>
  );
}
