// What the browser tier cannot set or provoke: the site's config in the notice, the leave form's refusal and
// fault. Sections, links, the language switch and the neutral answer are test/e2e's (privacy, leave).
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CLIENT_POSTS_PER_MINUTE, MAILS_PER_MAILBOX } from '#contract/abuse-limits';
import { LEAVE_MAIL_INTERVAL_MINUTES } from '#contract/leave';
import { MAX_CONFIRMATION_MAILS, PENDING_DAYS } from '#contract/waitlist-table';
import { siteConfig } from '../../frontend/src/config/site';
import { privacyCopy } from '../../frontend/src/features/privacy/copy/privacy-copy';
import { fillIn, fillInText } from '../../frontend/src/i18n/fill-in';
import { messages } from '../../frontend/src/i18n/messages';
import { renderPage } from './render-page';

const CONTROLLER = {
  legalName: 'Mandje B.V.',
  postalAddress: 'Voorbeeldstraat 1, 1234 AB Utrecht',
  kvkNumber: '12345678',
};

/** Renders the notice with `config` set on the site's facts, and puts them back. */
function renderWith(locale: 'nl' | 'en', config: { region?: string; controller?: typeof CONTROLLER }) {
  const saved = structuredClone(siteConfig);
  Object.assign(siteConfig, { ...config, controller: { ...siteConfig.controller, ...config.controller } });
  try {
    renderPage(locale, 'privacy');
  } finally {
    Object.assign(siteConfig, saved);
  }
}

describe.each(['nl', 'en'] as const)('privacy notice in %s', (locale) => {
  const copy = privacyCopy[locale];
  const region = (section: { title: string }) => screen.getByRole('region', { name: section.title });
  const figures = {
    days: String(PENDING_DAYS),
    max: String(MAX_CONFIRMATION_MAILS),
    perMailbox: String(MAILS_PER_MAILBOX),
    perClient: String(CLIENT_POSTS_PER_MINUTE),
    minutes: String(LEAVE_MAIL_INTERVAL_MINUTES),
  };

  it('fills in every figure from its one source, and the configured region with its country', () => {
    renderWith(locale, { region: 'eu-central-1' });

    expect(screen.getByRole('main').textContent).not.toMatch(/\{\w+\}/);
    expect(within(region(copy.summary)).getAllByRole('listitem')).toHaveLength(5);
    expect(region(copy.summary)).toHaveTextContent(copy.countries['eu-central-1']);
    expect(region(copy.storage)).toHaveTextContent(
      new RegExp(`${copy.countries['eu-central-1']}.*eu-central-1`),
    );
    expect(region(copy.retention)).toHaveTextContent(fillInText(copy.retention.pending, figures));
    expect(region(copy.purpose)).toHaveTextContent(fillInText(copy.purpose.confirmation, figures));
    expect(region(copy.limits)).toHaveTextContent(fillInText(copy.limits.body, figures));
    expect(region(copy.leave)).toHaveTextContent(fillInText(copy.leave.form, figures));
    // The leave form's answer is said only once it is given.
    expect(within(region(copy.leave)).queryByRole('list')).toBeNull();
    expect(region(copy.leave)).not.toHaveTextContent(copy.leave.requested.body);
    expect(
      within(region(copy.data))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(Object.values(copy.data.items).map((item) => fillInText(item, figures)));
  });

  it('names the controller by its legal name, postal address and KvK number when the config has them, in the footer too', () => {
    renderWith(locale, { controller: CONTROLLER });

    const controller = region(copy.controller);
    expect(controller).toHaveTextContent('Mandje B.V. is ');
    expect(controller).toHaveTextContent(CONTROLLER.postalAddress);
    expect(controller).toHaveTextContent(CONTROLLER.kvkNumber);
    expect(screen.getByRole('contentinfo')).toHaveTextContent(
      `${messages[locale].footer.runBy('Mandje B.V.')} · ${CONTROLLER.postalAddress} · KvK 12345678`,
    );
  });

  it('falls back to the brand when the config names no controller, and the footer says nothing of one', () => {
    renderPage(locale, 'privacy');

    expect(region(copy.controller)).toHaveTextContent(`${siteConfig.brandName} is `);
    expect(screen.getByRole('contentinfo')).not.toHaveTextContent('KvK');
  });

  it.each([
    // The API refusing what the page's rule let through: the field's message, as for any malformed address.
    [400, 'field'],
    [503, 'alert'],
  ] as const)('answers %s from the leave-request API with the %s', async (status, where) => {
    const fetchMock = vi.fn<typeof fetch>(() => Promise.resolve(new Response('{}', { status })));
    vi.stubGlobal('fetch', fetchMock);
    renderPage(locale, 'privacy');
    const section = region(copy.leave);
    const email = within(section).getByRole('textbox', { name: copy.leave.emailLabel });
    const user = userEvent.setup();
    await user.type(email, ' ann@example.nl ');
    await user.click(within(section).getByRole('button', { name: copy.leave.submit }));

    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      email: 'ann@example.nl',
      language: locale,
    });
    if (where === 'alert')
      expect(await within(within(section).getByRole('alert')).findByText(copy.leave.failed)).toBeVisible();
    else {
      const { errors, exampleEmail } = messages[locale].signup;
      expect(await within(section).findByText(errors.malformed(exampleEmail))).toBeInTheDocument();
      expect(email).toHaveFocus();
    }
  });
});

// Its elements in place: the notice's links, test/e2e/privacy.spec.ts.
describe('fillIn', () => {
  it('refuses a placeholder it has no value for', () => {
    expect(() => fillIn('Mail {emial}.', { email: 'x' })).toThrow('{emial}');
    expect(() => fillInText('Mail {emial}.', { email: 'x' })).toThrow('{emial}');
  });
});
