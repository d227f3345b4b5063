import { type KeyboardEvent, useRef } from 'react';
import { useLanguage } from '@/i18n/language-context';

export const DEMO_MODES = ['product', 'basket'] as const;
export type DemoMode = (typeof DEMO_MODES)[number];

export const demoTabId = (mode: DemoMode) => `demo-tab-${mode}`;
export const DEMO_PANEL_ID = 'demo-panel';

export function ViewSelector({
  mode,
  onChange,
  onIntent,
}: {
  mode: DemoMode;
  onChange: (mode: DemoMode) => void;
  onIntent: () => void;
}) {
  const { messages } = useLanguage();
  const tabRefs = useRef<Partial<Record<DemoMode, HTMLButtonElement | null>>>({});

  const select = (next: DemoMode) => {
    onChange(next);
    tabRefs.current[next]?.focus();
  };

  const handleKeyDown = (event: KeyboardEvent) => {
    const index = DEMO_MODES.indexOf(mode);
    const count = DEMO_MODES.length;
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index + count - 1,
      Home: 0,
      End: count - 1,
    };
    const move = moves[event.key];
    const next = move === undefined ? undefined : DEMO_MODES[move % count];
    if (!next) return;
    event.preventDefault();
    select(next);
  };

  return (
    <div
      role="tablist"
      aria-label={messages.demo.viewSelectorLabel}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      className="grid grid-cols-2 gap-1 rounded-full bg-stone-100 p-1"
    >
      {DEMO_MODES.map((each) => (
        <button
          key={each}
          ref={(element) => {
            tabRefs.current[each] = element;
          }}
          type="button"
          role="tab"
          id={demoTabId(each)}
          aria-selected={each === mode}
          aria-controls={DEMO_PANEL_ID}
          tabIndex={each === mode ? 0 : -1}
          onClick={() => onChange(each)}
          onKeyDown={handleKeyDown}
          className="min-h-10 rounded-full px-4 text-sm font-semibold text-stone-700 transition-colors hover:text-stone-950 focus-visible:outline-3 focus-visible:outline-brand-700 aria-selected:bg-white aria-selected:text-brand-800 aria-selected:shadow-sm dark:aria-selected:bg-stone-300"
        >
          {messages.demo.views[each]}
        </button>
      ))}
    </div>
  );
}
