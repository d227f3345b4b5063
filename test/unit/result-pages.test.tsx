// Where a form posted without a script lands: its words and where it leads. That each is a clean noindex
// page at its path is test/e2e's (no-script, confirmation and leave specs).
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { siteConfig } from '../../frontend/src/config/site';
import { confirmCopy } from '../../frontend/src/features/confirm/copy/confirm-copy';
import { leaveCopy } from '../../frontend/src/features/leave/copy/leave-copy';
import { privacyCopy } from '../../frontend/src/features/privacy/copy/privacy-copy';
import { resultCopy } from '../../frontend/src/features/waitlist/copy/result-copy';
import { fillInText } from '../../frontend/src/i18n/fill-in';
import { messages } from '../../frontend/src/i18n/messages';
import { type AddressedPage, PAGE_PATH } from '../../frontend/src/i18n/page-paths';
import { renderPage } from './render-page';

describe.each(['nl', 'en'] as const)('the result pages in %s', (locale) => {
  const { signup, common, meta } = messages[locale];
  const { notices } = signup;
  const waitlist = resultCopy[locale];
  const confirm = confirmCopy[locale];
  const leave = leaveCopy[locale];
  const facts = { brand: siteConfig.brandName, days: String(PENDING_DAYS) };
  const home = [common.backToHome, PAGE_PATH.home[locale]] as const;
  const form = (label: string) => [label, `${PAGE_PATH.home[locale]}#signup`] as const;
  const titles: Record<string, string> = {
    ...meta.waitlistResultTitles,
    ...meta.confirmResultTitles,
    ...meta.leaveResultTitles,
  };
  const { results } = confirm;

  it.each<[AddressedPage, string[], ...(readonly [string, string])]>([
    // SPEC's success notice in its exact words, then the step left.
    [
      'waitlist-joined',
      [notices.successTitle, notices.successBody, `${waitlist.mailSent} ${signup.spamFolder}`],
      ...home,
    ],
    // Neutral news: not whether the address was confirmed.
    ['waitlist-already-registered', [notices.duplicateBody, signup.notConfirmedYet], ...home],
    ['waitlist-invalid-email', [signup.errors.malformed(signup.exampleEmail)], ...form(waitlist.backToForm)],
    [
      'waitlist-try-again',
      [notices.errorTitle, notices.errorBody, `${waitlist.notSaved} ${waitlist.browserBack}`],
      ...form(waitlist.backToForm),
    ],
    ['confirm-confirmed', Object.values(results.confirmed), ...home],
    ['confirm-already-confirmed', Object.values(results['already-confirmed']), ...home],
    ['confirm-expired', Object.values(results.expired), ...form(confirm.signUpAgain)],
    ['confirm-invalid', Object.values(results.invalid), ...home],
    ['confirm-unknown', Object.values(results.unknown), ...form(confirm.signUpAgain)],
    // The page with the button is gone: go back to it.
    ['confirm-try-again', [results['try-again'].body, confirm.tryAgainWithoutScript], ...home],
    ['leave-done', Object.values(leave.results.done), ...form(leave.signUpAgain)],
    ['leave-requested', Object.values(privacyCopy[locale].leave.requested), ...home],
    ['leave-try-again', [leave.results['try-again'].body, leave.tryAgainWithoutScript], ...home],
  ])('%s says what happened and what to do next, and leads on', (page, texts, linkName, href) => {
    renderPage(locale, page);

    expect(screen.getByRole('heading', { level: 1, name: titles[page] })).toBeInTheDocument();
    for (const text of texts) expect(screen.getByText(fillInText(text, facts))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: linkName })).toHaveAttribute('href', href);
    // A signup confirmed is a moment: the mascot marks it.
    const mascot = document.querySelector('main img[src="/mascot.svg"]');
    expect(mascot !== null).toBe(page === 'confirm-confirmed' || page === 'confirm-already-confirmed');
  });
});
