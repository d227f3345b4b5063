import { LandingPage } from './features/landing/components/landing-page';
import { NotFoundPage } from './features/not-found/not-found-page';
import { LanguageProvider } from './i18n/language-context';
import type { Locale } from './i18n/locales';
import type { Page } from './i18n/page-metadata';

export function App({ page, initialLocale }: { page: Page; initialLocale: Locale }) {
  return (
    <LanguageProvider page={page} initialLocale={initialLocale}>
      {page === 'home' ? <LandingPage /> : <NotFoundPage />}
    </LanguageProvider>
  );
}
