import { useEffect } from 'react';
import { BrandLogo, Mascot } from '@/components/brand-logo';
import { primaryButton } from '@/components/control-styles';
import { useLanguage } from '@/i18n/language-context';
import { PAGE_PATH } from '@/i18n/page-paths';

export function NotFoundPage() {
  const { locale, messages } = useLanguage();
  const copy = messages.notFound;
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', window.location.pathname);
  }, []);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-linear-to-b from-brand-100 to-paper px-4 text-center">
      <BrandLogo className="text-brand-900" />
      <Mascot label="" eager className="h-auto w-32" />
      <p className="text-7xl font-extrabold text-brand-800">{copy.code}</p>
      <h1 className="text-2xl font-bold">{copy.title}</h1>
      <a href={PAGE_PATH.home[locale]} className={primaryButton}>
        {copy.homeLink}
      </a>
    </main>
  );
}
