import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WAITLIST_RESULTS } from '#contract/waitlist-api';
import { messages } from '../../frontend/src/i18n/messages';
import { pageMetadata } from '../../frontend/src/i18n/page-metadata';
import { waitlistResultPage } from '../../frontend/src/i18n/page-paths';
import { renderPage } from './render-page';

describe.each(['nl', 'en'] as const)('the waitlist result pages in %s', (locale) => {
  const copy = messages[locale];
  const notices = copy.signup.notices;
  const home = locale === 'nl' ? '/' : '/en/';

  it.each([
    ['joined', notices.successBody, copy.signup.resultPages.backHome, home],
    ['already-registered', notices.duplicateBody, copy.signup.resultPages.backHome, home],
    [
      'invalid-email',
      copy.signup.errors.malformed(copy.signup.exampleEmail),
      copy.signup.resultPages.backToForm,
      `${home}#signup`,
    ],
    ['try-again', notices.errorBody, copy.signup.resultPages.backToForm, `${home}#signup`],
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

    expect(screen.getByText(new RegExp(copy.signup.resultPages.notSaved))).toHaveTextContent(
      copy.signup.resultPages.browserBack,
    );
  });

  it('tells a new member that a mail was sent to confirm the signup', () => {
    renderPage(locale, 'waitlist-joined');

    expect(screen.getByText(copy.signup.resultPages.mailSent)).toBeInTheDocument();
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
