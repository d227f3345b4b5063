import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { Locale } from '#contract/locales';
import { App } from '../../frontend/src/app';
import { LanguageProvider } from '../../frontend/src/i18n/language-context';
import { allMessages } from '../../frontend/src/i18n/messages';
import type { Page } from '../../frontend/src/i18n/page-metadata';

/** The whole page, as a visitor gets it, in one language. */
export function renderPage(locale: Locale = 'nl', page: Page = 'home') {
  return render(<App page={page} initialLocale={locale} />);
}

/** One component with the language context it needs. */
export function renderInLanguage(ui: ReactNode, locale: Locale = 'nl') {
  return render(
    <LanguageProvider page="home" initialLocale={locale} catalog={allMessages}>
      {ui}
    </LanguageProvider>,
  );
}
