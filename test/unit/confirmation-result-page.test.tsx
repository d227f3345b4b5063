import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CONFIRM_RESULT_PAGES, CONFIRM_RESULT_PATH } from '#contract/confirmation';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { siteConfig } from '../../frontend/src/config/site';
import { confirmCopy } from '../../frontend/src/features/confirm/copy/confirm-copy';
import { messages } from '../../frontend/src/i18n/messages';
import { pageMetadata } from '../../frontend/src/i18n/page-metadata';
import { confirmResultPage, pageOfPath, pathOf } from '../../frontend/src/i18n/page-paths';
import { renderPage } from './render-page';

describe.each(['nl', 'en'] as const)('the confirmation’s result pages in %s', (locale) => {
  const copy = confirmCopy[locale];
  const titles = messages[locale].meta.confirmResultTitles;
  const home = locale === 'nl' ? '/' : '/en/';
  const fill = (text: string) =>
    text.replace('{brand}', siteConfig.brandName).replace('{days}', String(PENDING_DAYS));

  it.each([
    ['confirmed', copy.results.confirmed.next, messages[locale].common.backToHome, home],
    ['already-confirmed', copy.results['already-confirmed'].next, messages[locale].common.backToHome, home],
    ['expired', copy.results.expired.next, copy.signUpAgain, `${home}#signup`],
    ['invalid', copy.results.invalid.next, messages[locale].common.backToHome, home],
    ['unknown', copy.results.unknown.next, copy.signUpAgain, `${home}#signup`],
    ['try-again', copy.tryAgainWithoutScript, messages[locale].common.backToHome, home],
  ] as const)('%s says what happened and what to do, and leads on', (result, next, linkName, href) => {
    renderPage(locale, confirmResultPage(result));

    expect(
      screen.getByRole('heading', { level: 1, name: titles[confirmResultPage(result)] }),
    ).toBeInTheDocument();
    expect(screen.getByText(fill(copy.results[result].body))).toBeInTheDocument();
    expect(screen.getByText(fill(next))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: linkName })).toHaveAttribute('href', href);
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
  });

  it.each([
    ['confirmed', true],
    ['already-confirmed', true],
    ['expired', false],
  ] as const)('%s marks the moment with the mascot: %s', (result, mascot) => {
    renderPage(locale, confirmResultPage(result));
    expect(document.querySelector('main img[src="/mascot.svg"]') !== null).toBe(mascot);
  });

  it('tells how long a link works, from the table’s own figure', () => {
    renderPage(locale, 'confirm-expired');

    expect(screen.getByText(new RegExp(`\\b${PENDING_DAYS}\\b`))).toBeInTheDocument();
  });

  it('tells a visitor whose press failed to go back and press again, as the page is gone', () => {
    renderPage(locale, 'confirm-try-again');

    expect(screen.getByText(copy.tryAgainWithoutScript)).toBeInTheDocument();
    expect(screen.queryByText(copy.results['try-again'].next)).not.toBeInTheDocument();
  });

  it.each(CONFIRM_RESULT_PAGES)('%s is found at the address the API sends a form post to', (result) => {
    const path = CONFIRM_RESULT_PATH[result][locale];

    expect(pageOfPath(path)).toBe(confirmResultPage(result));
    expect(pathOf(confirmResultPage(result), locale)).toBe(path);
  });

  it('keeps every result page out of search engines: no canonical, no alternates', () => {
    for (const result of CONFIRM_RESULT_PAGES) {
      const meta = pageMetadata(confirmResultPage(result), locale, messages[locale].meta);
      expect(meta.canonicalUrl).toBeUndefined();
      expect(meta.alternates).toEqual([]);
      expect(meta.title).toBe(`${titles[confirmResultPage(result)]} · Mandje`);
    }
  });
});
