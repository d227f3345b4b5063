import { focusRing } from '@/components/control-styles';
import { isPlainClick } from '@/components/go-to-signup';
import { Icon } from '@/components/icons';
import { ENGLISH_OFFER } from '@/features/landing/copy/english-offer';
import { useLanguage } from '@/i18n/language-context';
import { PAGE_PATH } from '@/i18n/page-paths';

export function EnglishOfferLink() {
  const { locale, switchLocale } = useLanguage();
  if (locale !== 'nl') return null;
  return (
    <p lang="en" className="absolute top-full right-0 -mt-2">
      <a
        href={PAGE_PATH.home.en}
        hrefLang="en"
        onClick={(event) => {
          if (!isPlainClick(event)) return;
          event.preventDefault();
          switchLocale('en');
        }}
        className={`inline-flex min-h-8 items-center gap-1.5 rounded-full bg-white px-3 text-sm font-semibold whitespace-nowrap text-brand-800 shadow-sm ring-1 ring-stone-200 hover:text-brand-900 ${focusRing}`}
      >
        {ENGLISH_OFFER}
        <Icon name="arrowRight" className="h-4 w-4" />
      </a>
    </p>
  );
}
