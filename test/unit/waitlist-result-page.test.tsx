import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WAITLIST_RESULTS } from '#contract/waitlist-api';
import { resultCopy } from '../../frontend/src/features/waitlist/copy/result-copy';
import { messages } from '../../frontend/src/i18n/messages';
import { pageMetadata } from '../../frontend/src/i18n/page-metadata';
import { waitlistResultPage } from '../../frontend/src/i18n/page-paths';
import { renderPage } from './render-page';

describe.each(['nl', 'en'] as const)('the waitlist result pages in %s', (locale) => {
  const copy = messages[locale];
  const pages = resultCopy[locale];
  const notices = copy.signup.notices;
  const home = locale === 'nl' ? '/' : '/en/';

  it.each([
    ['joined', notices.successBody, copy.common.backToHome, home],
    ['already-registered', notices.duplicateBody, copy.common.backToHome, home],
    [
      'invalid-email',
      copy.signup.errors.malformed(copy.signup.exampleEmail),
      pages.backToForm,
      `${home}#signup`,
    ],
    ['try-again', notices.errorBody, pages.backToForm, `${home}#signup`],
  ] as const)('%s says so in the notice’s words and leads on', (result, body, linkName, href) => {
    renderPage(locale, waitlistResultPage(result));

    expect(
      screen.getByRole('heading', {
        level: 1,
        name: copy.meta.waitlistResultTitles[waitlistResultPage(result)],
      }),
    ).toBeInTheDocument();
    expect(screen.getByText(body)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: linkName })).toHaveAttribute('href', href);
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
  });

  it('tells a visitor whose signup failed that nothing was saved and that Back keeps what they typed', () => {
    renderPage(locale, 'waitlist-try-again');

    expect(screen.getByText(new RegExp(pages.notSaved))).toHaveTextContent(pages.browserBack);
  });

  it('after joining leads with the step left, confirming by mail, then the inbox and spam folder, as the page with a script does', () => {
    renderPage(locale, 'waitlist-joined');

    expect(
      screen.getByRole('heading', {
        level: 1,
        name:
          locale === 'nl'
            ? 'Nog één stap: bevestig met de link die we je stuurden'
            : 'One more step: confirm with the link we sent',
      }),
    ).toBeInTheDocument();
    // SPEC's success notice, in its exact words.
    expect(screen.getByText(notices.successTitle)).toBeInTheDocument();
    expect(screen.getByText(notices.successBody)).toBeInTheDocument();
    expect(screen.getByText(`${pages.mailSent} ${copy.signup.spamFolder}`)).toBeInTheDocument();
  });

  it('says an address already registered is on the list, as neutral news, with the advice for the unconfirmed', () => {
    renderPage(locale, 'waitlist-already-registered');

    expect(screen.getByRole('heading', { level: 1, name: notices.duplicateTitle })).toBeInTheDocument();
    const notice = screen.getByText(notices.duplicateBody).closest('div') as HTMLElement;
    expect(notice.className).not.toMatch(/red/);
    expect(screen.getByText(copy.signup.notConfirmedYet)).toBeInTheDocument();
    // Nothing more than SPEC's notice says: not whether the address was confirmed.
    expect(screen.queryByText(copy.signup.notices.successBody)).not.toBeInTheDocument();
  });

  it('keeps every result page out of search engines: no canonical, no alternates', () => {
    for (const result of WAITLIST_RESULTS) {
      const meta = pageMetadata(waitlistResultPage(result), locale, copy.meta);
      expect(meta.canonicalUrl).toBeUndefined();
      expect(meta.alternates).toEqual([]);
      expect(meta.title).toBe(`${copy.meta.waitlistResultTitles[waitlistResultPage(result)]} · Mandje`);
    }
  });
});
