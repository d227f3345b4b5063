import type { ReactNode } from 'react';
import { BrandMark } from '../../../components/brand-logo';
import { useLanguage } from '../../../i18n/language-context';

/** One message in the demo conversation; the sender is said for screen readers, shown by side and colour. */
export function ChatBubble({ from, children }: { from: 'visitor' | 'mandje'; children: ReactNode }) {
  const { messages } = useLanguage();
  if (from === 'visitor') {
    return (
      <div className="flex justify-end">
        <div className="max-w-[85%] rounded-2xl rounded-br-md bg-brand-700 px-4 py-2.5 text-white">
          <span className="sr-only">{messages.demo.senderYou}: </span>
          {children}
        </div>
      </div>
    );
  }
  return (
    <div className="flex items-start gap-2">
      <BrandMark className="mt-1 h-7 w-7 shrink-0" />
      <div className="min-w-0 max-w-[90%] flex-1 rounded-2xl rounded-tl-md bg-stone-100 px-4 py-3 text-stone-900">
        <span className="sr-only">{messages.demo.senderMandje}: </span>
        {children}
      </div>
    </div>
  );
}
