import { type KeyboardEvent, useRef, useState } from 'react';
import { BrandMark } from '@/components/brand-logo';
import { PageSection } from '@/components/page-section';
import { DEMO_WEEK, type DealItem } from '@/features/demo/demo-data';
import { useDeferredModule } from '@/features/demo/use-deferred-module';
import { useLanguage } from '@/i18n/language-context';
import { ChatBubble } from './chat-bubble';
import { ChatComposer } from './chat-composer';
import type { PlusMenuAction } from './plus-menu-entries';
import { ProductAnswer } from './product-answer';
import { TryItFirstForm } from './try-it-first-form';

const DEMO_MODES = ['product', 'basket'] as const;
type DemoMode = (typeof DEMO_MODES)[number];

const demoTabId = (mode: DemoMode) => `demo-tab-${mode}`;
const DEMO_PANEL_ID = 'demo-panel';

function ViewSelector(props: { mode: DemoMode; onChange: (mode: DemoMode) => void; onIntent: () => void }) {
  const { messages } = useLanguage();
  // Of two tabs, either arrow goes to the other.
  const handleKeyDown = (event: KeyboardEvent) => {
    const other = props.mode === 'product' ? 'basket' : 'product';
    const keys: Record<string, DemoMode> = {
      ArrowRight: other,
      ArrowLeft: other,
      Home: 'product',
      End: 'basket',
    };
    const next = keys[event.key];
    if (!next) return;
    event.preventDefault();
    props.onChange(next);
    document.getElementById(demoTabId(next))?.focus();
  };
  return (
    <div
      role="tablist"
      aria-label={messages.demo.viewSelectorLabel}
      onPointerEnter={props.onIntent}
      onFocus={props.onIntent}
      className="grid grid-cols-2 gap-1 rounded-full bg-stone-100 p-1"
    >
      {DEMO_MODES.map((each) => (
        <button
          key={each}
          type="button"
          role="tab"
          id={demoTabId(each)}
          aria-selected={each === props.mode}
          aria-controls={DEMO_PANEL_ID}
          tabIndex={each === props.mode ? 0 : -1}
          onClick={() => props.onChange(each)}
          onKeyDown={handleKeyDown}
          className="min-h-10 rounded-full px-4 text-sm font-semibold text-stone-700 transition-colors hover:text-stone-950 focus-visible:outline-3 focus-visible:outline-brand-700 aria-selected:bg-white aria-selected:text-brand-800 aria-selected:shadow-sm dark:aria-selected:bg-stone-300"
        >
          {messages.demo.views[each]}
        </button>
      ))}
    </div>
  );
}

const importDialogs = () => import('./demo-dialogs');
const importBasketAnswer = () => import('./basket-answer');

/** Nothing here talks to a server: every answer is written in advance. */
export function ChatDemo() {
  const { messages, format } = useLanguage();
  const copy = messages.demo;
  const [mode, setMode] = useState<DemoMode>('product');
  const [sent, setSent] = useState<string[]>([]);
  const [openDeal, setOpenDeal] = useState<DealItem | null>(null);
  const [alternativeOpen, setAlternativeOpen] = useState(false);
  const [dialogs, loadDialogs] = useDeferredModule(importDialogs);
  const [basketAnswer, loadBasketAnswer] = useDeferredModule(importBasketAnswer);
  // The basket view shows once its code is there, never as an empty panel; the view chosen last wins.
  const chosenMode = useRef<DemoMode>(mode);
  const changeMode = (next: DemoMode) => {
    chosenMode.current = next;
    if (next === 'product') setMode(next);
    else
      void loadBasketAnswer().then((loaded) => {
        if (loaded && chosenMode.current === next) setMode(next);
      });
  };

  const openDealDialog = (deal: DealItem) => {
    loadDialogs();
    setOpenDeal(deal);
  };
  const openAlternativeDialog = () => {
    loadDialogs();
    setAlternativeOpen(true);
  };

  const send = (text: string) => setSent((earlier) => [...earlier, text]);
  const handleMenuAction = (action: PlusMenuAction) => {
    if (action === 'product') changeMode('product');
    else send(copy.plusMenu[action]);
  };

  return (
    <PageSection id="demo" title={copy.title} intro={copy.intro}>
      <div className="mx-auto mt-12 max-w-2xl overflow-visible rounded-3xl bg-white shadow-xl ring-1 ring-stone-200">
        <div className="flex flex-col gap-3 border-b border-stone-200 p-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex items-center gap-3">
            <BrandMark className="h-10 w-10" />
            <div>
              <p className="font-bold">{copy.assistantName}</p>
              <p className="flex items-center gap-1.5 text-sm text-stone-600">
                <span aria-hidden="true" className="h-2 w-2 rounded-full bg-brand-500" />
                {copy.assistantStatus}
              </p>
            </div>
          </div>
          <ViewSelector mode={mode} onChange={changeMode} onIntent={loadBasketAnswer} />
        </div>
        <p className="px-3 pt-4 text-center sm:px-4">
          <span className="inline-block rounded-full bg-stone-100 px-3 py-1 text-xs font-semibold text-stone-700">
            {copy.exampleWeek(format.dayMonthRange(DEMO_WEEK.from, DEMO_WEEK.until))}
          </span>
        </p>
        <div
          id={DEMO_PANEL_ID}
          role="tabpanel"
          aria-labelledby={demoTabId(mode)}
          onPointerEnter={loadDialogs}
          onFocus={loadDialogs}
          className="space-y-4 p-3 sm:p-4"
        >
          {mode === 'product' ? (
            <ProductAnswer onOpenDeal={openDealDialog} />
          ) : (
            basketAnswer && (
              <basketAnswer.BasketAnswer
                onOpenDeal={openDealDialog}
                onOpenAlternative={openAlternativeDialog}
              />
            )
          )}
        </div>
        <div role="log" aria-label={copy.conversationLabel} className="space-y-4 px-3 not-empty:pb-4 sm:px-4">
          {sent.map((text, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: append-only list
            <div key={index} className="space-y-4">
              <ChatBubble from="visitor">{text}</ChatBubble>
              <ChatBubble from="mandje">{copy.cannedReply}</ChatBubble>
            </div>
          ))}
        </div>
        <ChatComposer onSend={send} onMenuAction={handleMenuAction} />
        <TryItFirstForm />
      </div>
      {dialogs && <dialogs.DealDialog deal={openDeal} onClose={() => setOpenDeal(null)} />}
      {dialogs && <dialogs.BasketDialog open={alternativeOpen} onClose={() => setAlternativeOpen(false)} />}
    </PageSection>
  );
}
