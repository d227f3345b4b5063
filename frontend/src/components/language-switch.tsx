import { LOCALES } from '#contract/locales';
import { useLanguage } from '@/i18n/language-context';
import { hasAddress, PAGE_PATH } from '@/i18n/page-paths';
import { isPlainClick } from './go-to-signup';

/** Real links (home, from a page with no address), for no script and new tabs; a plain click switches in place. */
export function LanguageSwitch() {
  const { page, locale, messages, switchLocale, prepareLocale } = useLanguage();
  return (
    <nav aria-label={messages.common.languageNavLabel}>
      <ul className="flex rounded-full bg-white p-1 shadow-sm ring-1 ring-stone-200">
        {LOCALES.map((each) => (
          <li key={each}>
            <a
              href={PAGE_PATH[hasAddress(page) ? page : 'home'][each]}
              hrefLang={each}
              lang={each}
              aria-current={each === locale ? 'true' : undefined}
              onClick={(event) => {
                if (!isPlainClick(event)) return;
                event.preventDefault();
                switchLocale(each);
              }}
              onPointerEnter={() => prepareLocale(each)}
              onFocus={() => prepareLocale(each)}
              className="inline-flex min-h-10 min-w-12 items-center justify-center rounded-full px-3 text-sm font-bold text-stone-700 hover:text-stone-950 focus-visible:outline-3 focus-visible:outline-brand-700 aria-[current=true]:bg-brand-700 aria-[current=true]:text-white"
            >
              {each.toUpperCase()}
              <span className="sr-only"> {messages.common.languageNames[each]}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
