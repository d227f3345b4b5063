import type { KeyboardEvent } from 'react';
import { useLanguage } from '@/i18n/language-context';

const DEMO_MODES = ['product', 'basket'] as const;
export type DemoMode = (typeof DEMO_MODES)[number];

export const demoTabId = (mode: DemoMode) => `demo-tab-${mode}`;
export const DEMO_PANEL_ID = 'demo-panel';

export function ViewSelector(props: {
  mode: DemoMode;
  onChange: (mode: DemoMode) => void;
  onIntent: () => void;
}) {
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
