import type { ReactNode } from 'react';
import { BrandMark } from '@/components/brand-logo';
import { useLanguage } from '@/i18n/language-context';

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
