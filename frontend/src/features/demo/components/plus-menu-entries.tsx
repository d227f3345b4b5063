import { useEffect } from 'react';
import { otherLocale } from '#contract/locales';
import { focusRing } from '@/components/control-styles';
import { Icon, type IconName } from '@/components/icons';
import { useLanguage } from '@/i18n/language-context';

export type PlusMenuAction = 'scanReceipt' | 'product' | 'supermarket';

const ENTRIES = [
  { key: 'scanReceipt', icon: 'camera', available: true },
  { key: 'character', icon: 'user', available: false },
  { key: 'location', icon: 'pin', available: false },
  { key: 'product', icon: 'tag', available: true },
  { key: 'supermarket', icon: 'store', available: true },
] as const satisfies readonly { key: string; icon: IconName; available: boolean }[];

const entryStyle = `flex w-full items-center gap-3 rounded-xl px-3 py-2.5 text-left text-stone-800 hover:bg-stone-100 ${focusRing} disabled:cursor-not-allowed disabled:text-stone-500 disabled:hover:bg-transparent`;

export function PlusMenuEntries(props: {
  choose: (action: () => void) => void;
  onAction: (action: PlusMenuAction) => void;
}) {
  const { locale, messages, switchLocale, prepareLocale } = useLanguage();
  const copy = messages.demo.plusMenu;
  const target = otherLocale(locale);
  useEffect(() => prepareLocale(target), [prepareLocale, target]);
  return (
    <ul className="w-72 max-w-[calc(100vw-3rem)] rounded-2xl bg-white p-2 shadow-xl ring-1 ring-stone-200">
      {ENTRIES.map(({ key, icon, available }) => (
        <li key={key}>
          <button
            type="button"
            className={entryStyle}
            disabled={!available}
            onClick={() => available && props.choose(() => props.onAction(key))}
          >
            <Icon name={icon} />
            <span className="flex-1">{copy[key]}</span>{' '}
            {!available && (
              <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-amber-900">
                {messages.common.comingSoon}
              </span>
            )}
          </button>
        </li>
      ))}
      <li className="mt-1 border-t border-stone-200 pt-1">
        <button type="button" className={entryStyle} onClick={() => props.choose(() => switchLocale(target))}>
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
  );
}
