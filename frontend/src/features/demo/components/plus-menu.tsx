import { useEffect, useId, useRef, useState } from 'react';
import { iconButton } from '../../../components/control-styles';
import { Icon, type IconName } from '../../../components/icons';
import { useLanguage } from '../../../i18n/language-context';
import { otherLocale } from '../../../i18n/locales';

export type PlusMenuAction = 'scanReceipt' | 'product' | 'supermarket';

const ENTRIES = [
  { key: 'scanReceipt', icon: 'camera', available: true },
  { key: 'character', icon: 'user', available: false },
  { key: 'location', icon: 'pin', available: false },
  { key: 'product', icon: 'tag', available: true },
  { key: 'supermarket', icon: 'store', available: true },
] as const satisfies readonly { key: string; icon: IconName; available: boolean }[];

const entryStyle =
  'flex w-full items-center gap-3 rounded-xl px-3 py-2.5 text-left text-stone-800 hover:bg-stone-100 focus-visible:outline-3 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:text-stone-500 disabled:hover:bg-transparent';

/**
 * The "+" next to the message box: a disclosure with the demo's extra actions and the language toggle.
 * It closes on a choice, on a click anywhere outside it and on Escape (which puts focus back on "+").
 */
export function PlusMenu({ onAction }: { onAction: (action: PlusMenuAction) => void }) {
  const { locale, messages, switchLocale } = useLanguage();
  const copy = messages.demo.plusMenu;
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const closeOnOutsidePress = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('pointerdown', closeOnOutsidePress);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOnOutsidePress);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  const choose = (action: () => void) => {
    setOpen(false);
    action();
  };
  const target = otherLocale(locale);

  return (
    <div ref={containerRef} className="relative">
      <button
        ref={toggleRef}
        type="button"
        aria-label={copy.toggle}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((isOpen) => !isOpen)}
        className={`${iconButton} bg-stone-100 text-stone-800 hover:bg-stone-200 aria-expanded:bg-brand-700 aria-expanded:text-white`}
      >
        <Icon
          name="plus"
          className={`h-5 w-5 transition-transform motion-reduce:transition-none ${open ? 'rotate-45' : ''}`}
        />
      </button>
      <div
        id={menuId}
        hidden={!open}
        className="absolute bottom-12 left-0 z-10 w-72 max-w-[calc(100vw-3rem)] rounded-2xl bg-white p-2 shadow-xl ring-1 ring-stone-200"
      >
        <ul>
          {ENTRIES.map(({ key, icon, available }) => (
            <li key={key}>
              {available ? (
                <button type="button" className={entryStyle} onClick={() => choose(() => onAction(key))}>
                  <Icon name={icon} />
                  {copy[key]}
                </button>
              ) : (
                <button type="button" className={entryStyle} disabled>
                  <Icon name={icon} />
                  <span className="flex-1">{copy[key]}</span>{' '}
                  <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-amber-900">
                    {messages.common.comingSoon}
                  </span>
                </button>
              )}
            </li>
          ))}
          <li className="mt-1 border-t border-stone-200 pt-1">
            <button type="button" className={entryStyle} onClick={() => choose(() => switchLocale(target))}>
              <Icon name="globe" />
              <span className="flex-1" lang={target}>
                {messages.common.languageNames[target]}
              </span>
              <span aria-hidden="true" className="text-xs font-bold text-stone-500">
                EN/NL
              </span>
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}
