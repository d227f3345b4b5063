import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { BrandMark } from '@/components/brand-logo';
import { iconButton, textInput } from '@/components/control-styles';
import { FIELD_ROW, FieldError, SubmitButton, useTypedBeforeHydration } from '@/components/form-parts';
import { goToSignup } from '@/components/go-to-signup';
import { Icon } from '@/components/icons';
import { PageSection } from '@/components/page-section';
import { DEMO_WEEK, type DealItem } from '@/features/demo/demo-data';
import { useLanguage } from '@/i18n/language-context';
import type { PlusMenuAction } from './plus-menu-entries';
import { ChatBubble, ProductAnswer } from './product-answer';

type DemoMode = 'product' | 'basket';
const demoTabId = (mode: DemoMode) => `demo-tab-${mode}`;

// Code the first view does not need, fetched at the first sign it is wanted; `load` resolves to whether it
// came. A failed fetch leaves the page as it was, and the next call tries again.
function useDeferredModule<Module extends object>(importModule: () => Promise<Module>) {
  const [module, setModule] = useState<Module | null>(null);
  const pending = useRef<Promise<boolean> | null>(null);
  const load = () => {
    pending.current ??= importModule().then(
      (loaded) => {
        setModule(loaded);
        return true;
      },
      () => {
        pending.current = null;
        return false;
      },
    );
    return pending.current;
  };
  return [module, load] as const;
}

/** Nothing here talks to a server: every answer is written in advance. */
export function ChatDemo() {
  const { messages, format } = useLanguage();
  const copy = messages.demo;
  const [mode, setMode] = useState<DemoMode>('product');
  const [sent, setSent] = useState<string[]>([]);
  const [text, setText] = useState('');
  const [openDeal, setOpenDeal] = useState<DealItem | null>(null);
  const [alternativeOpen, setAlternativeOpen] = useState(false);
  const [dialogs, loadDialogs] = useDeferredModule(() => import('./demo-dialogs'));
  const [basketAnswer, loadBasketAnswer] = useDeferredModule(() => import('./basket-answer'));
  const inputRef = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(inputRef, setText);
  const inputId = useId();
  // The basket view shows once its code is there, never as an empty panel; the view chosen last wins.
  const chosenMode = useRef(mode);
  const changeMode = (next: DemoMode) => {
    chosenMode.current = next;
    if (next === 'product') setMode(next);
    else void loadBasketAnswer().then((loaded) => loaded && chosenMode.current === next && setMode(next));
  };
  const openDialog = (open: () => void) => {
    loadDialogs();
    open();
  };
  const send = (message: string) => setSent((earlier) => [...earlier, message]);
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!text.trim()) return;
    send(text.trim());
    setText('');
  };
  // Of two tabs, either arrow goes to the other.
  const handleTabKey = (event: KeyboardEvent) => {
    const other = mode === 'product' ? 'basket' : 'product';
    const keys = { ArrowRight: other, ArrowLeft: other, Home: 'product', End: 'basket' } as const;
    const next: DemoMode | undefined = keys[event.key as keyof typeof keys];
    if (!next) return;
    event.preventDefault();
    changeMode(next);
    document.getElementById(demoTabId(next))?.focus();
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
          <div
            role="tablist"
            aria-label={copy.viewSelectorLabel}
            onPointerEnter={loadBasketAnswer}
            onFocus={loadBasketAnswer}
            className="grid grid-cols-2 gap-1 rounded-full bg-stone-100 p-1"
          >
            {(['product', 'basket'] as const).map((each) => (
              <button
                key={each}
                type="button"
                role="tab"
                id={demoTabId(each)}
                aria-selected={each === mode}
                aria-controls="demo-panel"
                tabIndex={each === mode ? 0 : -1}
                onClick={() => changeMode(each)}
                onKeyDown={handleTabKey}
                className="min-h-10 rounded-full px-4 text-sm font-semibold text-stone-700 transition-colors hover:text-stone-950 focus-visible:outline-3 focus-visible:outline-brand-700 aria-selected:bg-white aria-selected:text-brand-800 aria-selected:shadow-sm dark:aria-selected:bg-stone-300"
              >
                {copy.views[each]}
              </button>
            ))}
          </div>
        </div>
        <p className="px-3 pt-4 text-center sm:px-4">
          <span className="inline-block rounded-full bg-stone-100 px-3 py-1 text-xs font-semibold text-stone-700">
            {copy.exampleWeek(format.dayMonthRange(DEMO_WEEK.from, DEMO_WEEK.until))}
          </span>
        </p>
        <div
          id="demo-panel"
          role="tabpanel"
          aria-labelledby={demoTabId(mode)}
          onPointerEnter={loadDialogs}
          onFocus={loadDialogs}
          className="space-y-4 p-3 sm:p-4"
        >
          {mode === 'product' ? (
            <ProductAnswer onOpenDeal={(deal) => openDialog(() => setOpenDeal(deal))} />
          ) : (
            basketAnswer && (
              <basketAnswer.BasketAnswer
                onOpenDeal={(deal) => openDialog(() => setOpenDeal(deal))}
                onOpenAlternative={() => openDialog(() => setAlternativeOpen(true))}
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
        {/* method="dialog": without the script, sending does nothing rather than reloading the page at `/?`. */}
        <form
          method="dialog"
          onSubmit={handleSubmit}
          className="flex items-center gap-2 border-t border-stone-200 p-3"
        >
          <PlusMenu
            onAction={(action) =>
              action === 'product' ? changeMode('product') : send(copy.plusMenu[action])
            }
          />
          <label htmlFor={inputId} className="sr-only">
            {copy.input.label}
          </label>
          <input
            ref={inputRef}
            id={inputId}
            type="text"
            autoComplete="off"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder={copy.input.placeholder}
            className={textInput}
          />
          <button
            type="submit"
            aria-label={copy.input.send}
            className={`${iconButton} bg-brand-700 text-white hover:bg-brand-800`}
          >
            <Icon name="send" />
          </button>
        </form>
        <TryItFirstForm />
      </div>
      {dialogs && <dialogs.DealDialog deal={openDeal} onClose={() => setOpenDeal(null)} />}
      {dialogs && <dialogs.BasketDialog open={alternativeOpen} onClose={() => setAlternativeOpen(false)} />}
    </PageSection>
  );
}

/** A disclosure; a choice and Escape put the focus back on "+", since the chosen entry goes with the menu. */
function PlusMenu({ onAction }: { onAction: (action: PlusMenuAction) => void }) {
  const { messages } = useLanguage();
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const [entries, loadEntries] = useDeferredModule(() => import('./plus-menu-entries'));
  useEffect(() => {
    if (!open) return;
    const container = containerRef.current;
    const outside = (target: EventTarget | null) => target instanceof Node && !container?.contains(target);
    const listening = new AbortController();
    const { signal } = listening;
    document.addEventListener('pointerdown', (event) => outside(event.target) && setOpen(false), { signal });
    document.addEventListener(
      'keydown',
      (event) => {
        if (event.key !== 'Escape') return;
        setOpen(false);
        toggleRef.current?.focus();
      },
      { signal },
    );
    // A focus move with no destination (the window losing focus, Safari not focusing a clicked button) is none.
    container?.addEventListener('focusout', (event) => outside(event.relatedTarget) && setOpen(false), {
      signal,
    });
    return () => listening.abort();
  }, [open]);
  const choose = (action: () => void) => {
    setOpen(false);
    // Before the action, so a dialog it opens gives the focus back to "+".
    toggleRef.current?.focus();
    action();
  };
  return (
    <div ref={containerRef} className="relative">
      <button
        ref={toggleRef}
        type="button"
        aria-label={messages.demo.plusMenu.toggle}
        aria-expanded={open}
        aria-controls={menuId}
        onPointerEnter={loadEntries}
        onFocus={loadEntries}
        onClick={() => {
          loadEntries();
          setOpen((isOpen) => !isOpen);
        }}
        className={`${iconButton} bg-stone-100 text-stone-800 hover:bg-stone-200 aria-expanded:bg-brand-700 aria-expanded:text-white`}
      >
        <Icon
          name="plus"
          className={`h-5 w-5 transition-transform motion-reduce:transition-none ${open ? 'rotate-45' : ''}`}
        />
      </button>
      <div id={menuId} hidden={!open} className="absolute bottom-12 left-0 z-10">
        {open && entries && <entries.PlusMenuEntries choose={choose} onAction={onAction} />}
      </div>
    </div>
  );
}

/** The product is not open yet: after SPEC's two seconds of "preparing", the visitor goes to the waitlist. */
export function TryItFirstForm() {
  const { messages } = useLanguage();
  const copy = messages.demo.tryFirst;
  const [list, setList] = useState('');
  const [loading, setLoading] = useState(false);
  const [missing, setMissing] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(inputRef, setList);
  const inputId = useId();
  const errorId = useId();
  useEffect(() => {
    if (!loading) return;
    const timer = window.setTimeout(() => {
      setLoading(false);
      goToSignup();
    }, 2000);
    return () => window.clearTimeout(timer);
  }, [loading]);
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loading) return;
    setMissing(!list.trim());
    if (list.trim()) setLoading(true);
    else inputRef.current?.focus();
  };
  return (
    // method="dialog": without the script, submitting does nothing rather than reloading the page at `/?`.
    <form
      method="dialog"
      noValidate
      onSubmit={handleSubmit}
      className="rounded-b-3xl border-t border-stone-200 bg-brand-50 p-4 sm:p-5"
    >
      <label htmlFor={inputId} className="block font-semibold text-stone-900">
        {copy.label}
      </label>
      <div className={FIELD_ROW}>
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          required
          value={list}
          onChange={(event) => {
            setList(event.target.value);
            if (missing) setMissing(false);
          }}
          placeholder={copy.placeholder}
          aria-invalid={missing}
          aria-describedby={errorId}
          className={textInput}
        />
        <FieldError id={errorId} message={missing ? copy.required : ''} />
        <SubmitButton busy={loading} label={copy.submit} busyLabel={copy.loading} secondary />
      </div>
      <p role="status" className="sr-only">
        {loading ? copy.loading : ''}
      </p>
    </form>
  );
}
