import type { Locale } from '#contract/locales';
import { LandingPage } from './features/landing/components/landing-page';
import { NotFoundPage } from './features/not-found/not-found-page';
import { PrivacyPage } from './features/privacy/privacy-page';
import { LanguageProvider } from './i18n/language-context';
import type { Page } from './i18n/page-metadata';

/**
 * Every page, for the prerender and the tests. The browser's entry (main.tsx) puts the same pages in the same
 * provider, but loads the privacy notice as a chunk of its own.
 */
export function App({ page, initialLocale }: { page: Page; initialLocale: Locale }) {
  return (
    <LanguageProvider page={page} initialLocale={initialLocale}>
      {page === 'home' ? <LandingPage /> : page === 'privacy' ? <PrivacyPage /> : <NotFoundPage />}
    </LanguageProvider>
  );
}
