import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CLIENT_POSTS_PER_MINUTE, MAILS_PER_MAILBOX } from '#contract/abuse-limits';
import { LEAVE_MAIL_INTERVAL_MINUTES } from '#contract/leave';
import type { Locale } from '#contract/locales';
import { SIGNUP_NOTE_VERSION } from '#contract/waitlist-api';
import { MAX_CONFIRMATION_MAILS, PENDING_DAYS } from '#contract/waitlist-table';
import { siteConfig } from '../../frontend/src/config/site';
import { privacyCopy } from '../../frontend/src/features/privacy/copy/privacy-copy';
import { fillIn } from '../../frontend/src/i18n/fill-in';
import { messages } from '../../frontend/src/i18n/messages';
import { pageMetadata } from '../../frontend/src/i18n/page-metadata';
import { pageOfPath } from '../../frontend/src/i18n/page-paths';
import { prerenderPage } from '../../frontend/src/prerender';
import { renderPage } from './render-page';

const AP_URL = 'https://autoriteitpersoonsgegevens.nl';

describe.each(['nl', 'en'] as const)('privacy notice in %s', (locale: Locale) => {
  const copy = privacyCopy[locale];
  const path = locale === 'nl' ? '/privacy' : '/en/privacy';

  it('has one h1 and a titled section for each subject the law asks for', () => {
    renderPage(locale, 'privacy');

    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1, name: copy.title })).toBeInTheDocument();
    const sections = [
      copy.summary,
      copy.controller,
      copy.data,
      copy.purpose,
      copy.retention,
      copy.storage,
      copy.limits,
      copy.logs,
      copy.counting,
      copy.browser,
      copy.leave,
      copy.rights,
    ];
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual(
      sections.map((section) => section.title),
    );
    for (const { title } of sections) expect(screen.getByRole('region', { name: title })).toBeInTheDocument();
  });

  it('opens with the notice in five lines, before its first section, with the figures and the address filled in', () => {
    renderPage(locale, 'privacy');

    const summary = screen.getByRole('region', { name: copy.summary.title });
    const lines = within(summary).getAllByRole('listitem');
    expect(lines).toHaveLength(5);
    expect(summary.compareDocumentPosition(screen.getByRole('region', { name: copy.controller.title }))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    expect(summary.textContent).not.toMatch(/\{\w+\}/);
    expect(summary).toHaveTextContent(`${PENDING_DAYS}`);
    expect(within(summary).getByRole('link', { name: siteConfig.contactEmail })).toHaveAttribute(
      'href',
      `mailto:${siteConfig.contactEmail}`,
    );
  });

  it('names who is responsible and how to reach them, with the configured contact address', () => {
    renderPage(locale, 'privacy');

    const controller = screen.getByRole('region', { name: copy.controller.title });
    expect(controller).toHaveTextContent(siteConfig.brandName);
    expect(within(controller).getByRole('link', { name: siteConfig.contactEmail })).toHaveAttribute(
      'href',
      `mailto:${siteConfig.contactEmail}`,
    );
  });

  it('names the controller by its legal name, postal address and KvK number when the config has them, in the footer too', () => {
    const saved = { ...siteConfig.controller };
    Object.assign(siteConfig.controller, {
      legalName: 'Mandje B.V.',
      postalAddress: 'Voorbeeldstraat 1, 1234 AB Utrecht',
      kvkNumber: '12345678',
    });
    try {
      renderPage(locale, 'privacy');

      const controller = screen.getByRole('region', { name: copy.controller.title });
      expect(controller).toHaveTextContent('Mandje B.V. is ');
      expect(controller).toHaveTextContent('Voorbeeldstraat 1, 1234 AB Utrecht');
      expect(controller).toHaveTextContent('12345678');
      expect(screen.getByRole('contentinfo')).toHaveTextContent(
        `${messages[locale].footer.runBy('Mandje B.V.')} · Voorbeeldstraat 1, 1234 AB Utrecht · KvK 12345678`,
      );
    } finally {
      Object.assign(siteConfig.controller, saved);
      for (const key of Object.keys(siteConfig.controller) as (keyof typeof saved)[])
        if (!(key in saved) || saved[key] === undefined) delete siteConfig.controller[key];
    }
  });

  it('falls back to the brand when the config names no controller, and the footer says nothing of one', () => {
    renderPage(locale, 'privacy');

    expect(screen.getByRole('region', { name: copy.controller.title })).toHaveTextContent(
      `${siteConfig.brandName} is `,
    );
    expect(screen.getByRole('contentinfo')).not.toHaveTextContent('KvK');
  });

  it('lists exactly the fields a waitlist record keeps, in words a visitor knows', () => {
    renderPage(locale, 'privacy');

    const data = screen.getByRole('region', { name: copy.data.title });
    const items = within(data).getAllByRole('listitem');
    // No version string, no "hash": the page speaks to a visitor, not to its developers.
    expect(data).not.toHaveTextContent(SIGNUP_NOTE_VERSION);
    expect(screen.getByRole('main')).not.toHaveTextContent(/\bhash\b|database doet|database removes/);
    expect(items.map((item) => item.textContent)).toEqual([
      copy.data.items.email,
      copy.data.items.language,
      copy.data.items.createdAt,
      copy.data.items.consentVersion,
      copy.data.items.confirmation,
      copy.data.items.mails.replace('{max}', String(MAX_CONFIRMATION_MAILS)),
      copy.data.items.tokenHash,
      copy.data.items.undeliverable,
      copy.data.items.leaveKey,
      copy.data.items.leaveRequested,
      copy.data.items.announcements,
      copy.data.items.source,
    ]);
  });

  it('says what is kept to limit misuse, for how long, and the limits themselves, from their one source', () => {
    renderPage(locale, 'privacy');

    const limits = screen.getByRole('region', { name: copy.limits.title });
    expect(limits).toHaveTextContent(
      copy.limits.body
        .replace('{perMailbox}', String(MAILS_PER_MAILBOX))
        .replace('{perClient}', String(CLIENT_POSTS_PER_MINUTE)),
    );
    expect(limits).toHaveTextContent(copy.limits.undeliverable);
  });

  it('says a signup is pending until it is confirmed with the link in the mail', () => {
    renderPage(locale, 'privacy');

    const purpose = screen.getByRole('region', { name: copy.purpose.title });
    expect(purpose).toHaveTextContent(
      copy.purpose.confirmation.replace('{max}', String(MAX_CONFIRMATION_MAILS)),
    );
    expect(purpose).toHaveTextContent(new RegExp(`\\b${MAX_CONFIRMATION_MAILS}\\b`));
  });

  it('says how long a pending and a confirmed signup are kept, from the table’s own figures', () => {
    renderPage(locale, 'privacy');

    const retention = screen.getByRole('region', { name: copy.retention.title });
    expect(retention).toHaveTextContent(copy.retention.pending.replace('{days}', String(PENDING_DAYS)));
    expect(retention).toHaveTextContent(new RegExp(`\\b${PENDING_DAYS}\\b`));
    expect(retention).toHaveTextContent(/\b12\b/);
  });

  it('says how visitors are counted: per day and language, by a hash under a salt of the day, no IP address kept', () => {
    renderPage(locale, 'privacy');

    const counting = screen.getByRole('region', { name: copy.counting.title });
    expect(counting).toHaveTextContent(copy.counting.visits);
    const visits =
      locale === 'nl'
        ? /per dag en per taal.*script.*IP-adres.*willekeurige waarde die elke dag verandert.*nergens bewaard.*automatisch verwijderd.*zonder JavaScript/
        : /per day and per language.*script.*IP address.*random value that changes every day.*not stored anywhere.*deleted automatically.*without JavaScript/;
    expect(counting).toHaveTextContent(visits);
  });

  it('says a signup keeps its source: the UTM values and the referring site’s name, never a full address', () => {
    renderPage(locale, 'privacy');

    const counting = screen.getByRole('region', { name: copy.counting.title });
    expect(counting).toHaveTextContent(copy.counting.source);
    for (const name of ['utm_source', 'utm_medium', 'utm_campaign']) expect(counting).toHaveTextContent(name);
    expect(counting).toHaveTextContent(
      locale === 'nl' ? /nooit een volledig webadres/ : /never a full address/,
    );
    const data = screen.getByRole('region', { name: copy.data.title });
    expect(within(data).getByText(copy.data.items.source)).toBeInTheDocument();
  });

  it('says no cookie is set, where visits are counted and where the browser is', () => {
    renderPage(locale, 'privacy');

    expect(screen.getByRole('region', { name: copy.counting.title })).toHaveTextContent(
      copy.counting.noCookie,
    );
    expect(screen.getByRole('region', { name: copy.browser.title })).toHaveTextContent(
      locale === 'nl' ? /plaatst geen cookies/ : /sets no cookies/,
    );
  });

  it('no longer says visits are not logged', () => {
    renderPage(locale, 'privacy');

    expect(screen.getByRole('region', { name: copy.logs.title })).not.toHaveTextContent(
      /do not keep logs of who visits|Wie de site bezoekt, houden we niet bij/,
    );
  });

  it('says where the data lives, the configured region and its country, and on what basis any of it reaches the US', () => {
    const configured = siteConfig.region;
    Object.assign(siteConfig, { region: 'eu-central-1' });
    try {
      renderPage(locale, 'privacy');

      const storage = screen.getByRole('region', { name: copy.storage.title });
      const country = locale === 'nl' ? 'Duitsland' : 'Germany';
      expect(storage).toHaveTextContent(new RegExp(`${country}.*eu-central-1`));
      expect(screen.getByRole('region', { name: copy.summary.title })).toHaveTextContent(country);
      expect(storage).toHaveTextContent(/CloudFront.*us-east-1.*Data Privacy Framework.*45.*46/);
      expect(storage).toHaveTextContent(
        locale === 'nl' ? /standaardcontractbepalingen/ : /standard contractual clauses/,
      );
    } finally {
      Object.assign(siteConfig, { region: configured });
    }
  });

  it('names Amazon SES, part of AWS, as what sends the confirmation mail', () => {
    renderPage(locale, 'privacy');

    const storage = screen.getByRole('region', { name: copy.storage.title });
    expect(storage).toHaveTextContent(copy.storage.mail);
    expect(storage).toHaveTextContent(/Amazon Simple Email Service \(SES\)/);
    expect(storage).toHaveTextContent(/AWS/);
  });

  it('lists the rights, how to use them, and links to the Autoriteit Persoonsgegevens', () => {
    renderPage(locale, 'privacy');

    const rights = screen.getByRole('region', { name: copy.rights.title });
    expect(
      within(rights)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(Object.values(copy.rights.items));
    expect(within(rights).getByRole('link', { name: siteConfig.contactEmail })).toHaveAttribute(
      'href',
      `mailto:${siteConfig.contactEmail}`,
    );
    expect(within(rights).getByRole('link', { name: 'Autoriteit Persoonsgegevens' })).toHaveAttribute(
      'href',
      AP_URL,
    );
  });

  it('leads back to the home page in the same language', () => {
    renderPage(locale, 'privacy');

    expect(screen.getByRole('link', { name: messages[locale].common.backToHome })).toHaveAttribute(
      'href',
      locale === 'nl' ? '/' : '/en/',
    );
  });

  it(`is found at ${path}, with its own title and canonical address`, () => {
    const meta = pageMetadata('privacy', locale, messages[locale].meta);

    expect(pageOfPath(path)).toBe('privacy');
    expect(meta.title).toBe(messages[locale].meta.privacyTitle);
    expect(meta.canonicalUrl).toBe(`${siteConfig.siteUrl}${path}`);
    expect(meta.alternates).toEqual([
      { hreflang: 'nl', href: `${siteConfig.siteUrl}/privacy` },
      { hreflang: 'en', href: `${siteConfig.siteUrl}/en/privacy` },
      { hreflang: 'x-default', href: `${siteConfig.siteUrl}/privacy` },
    ]);
  });
});

describe.each(['nl', 'en'] as const)(
  'leaving the waitlist, on the privacy notice in %s',
  (locale: Locale) => {
    const copy = privacyCopy[locale];
    const errors = messages[locale].signup.errors;
    const fetchMock = vi.fn<typeof fetch>();
    beforeEach(() => {
      fetchMock.mockReset();
      vi.stubGlobal('fetch', fetchMock);
    });
    const reply = (status: number, body: unknown) =>
      Promise.resolve(new Response(JSON.stringify(body), { status }));

    function renderForm() {
      renderPage(locale, 'privacy');
      const section = screen.getByRole('region', { name: copy.leave.title });
      return {
        section,
        email: within(section).getByRole('textbox', { name: copy.leave.emailLabel }),
        submit: within(section).getByRole('button', { name: copy.leave.submit }),
        user: userEvent.setup(),
      };
    }

    it('describes both ways: the link in every mail, and the form for a person without one', () => {
      const { section } = renderForm();

      expect(section).toHaveTextContent(copy.leave.link);
      expect(section).toHaveTextContent(
        copy.leave.form.replace('{minutes}', String(LEAVE_MAIL_INTERVAL_MINUTES)),
      );
    });

    it('no longer asks anyone to mail the contact address to leave; access, correction and questions still go there', () => {
      renderPage(locale, 'privacy');
      const rights = screen.getByRole('region', { name: copy.rights.title });

      expect(rights).toHaveTextContent(copy.rights.leave);
      expect(rights).toHaveTextContent(copy.rights.howTo.replace('{email}', siteConfig.contactEmail));
      expect(copy.rights.howTo).not.toMatch(/delete|leave|verwijder|verlaat/i);
    });

    it('is a plain form post to the leave-request API before the script runs, with a required email field', () => {
      const document = new DOMParser().parseFromString(prerenderPage('privacy', locale).body, 'text/html');
      const form = document.querySelector('form[action="/api/leave-request"]');

      expect(form?.getAttribute('method')).toBe('post');
      const email = form?.querySelector('input[name="email"]');
      expect(email?.getAttribute('type')).toBe('email');
      expect(email?.hasAttribute('required')).toBe(true);
      expect(form?.querySelector('input[type="hidden"][name="language"]')?.getAttribute('value')).toBe(
        locale,
      );
    });

    it('with the script, sends the address and its language as JSON and gives the one neutral answer', async () => {
      fetchMock.mockReturnValue(reply(202, { status: 'requested' }));
      const { section, email, submit, user } = renderForm();
      await user.type(email, ' ann@example.nl ');
      await user.click(submit);

      const [url, init] = fetchMock.mock.calls[0] ?? [];
      expect(url).toBe('/api/leave-request');
      expect(JSON.parse(String(init?.body))).toEqual({ email: 'ann@example.nl', language: locale });
      const status = within(section).getByRole('status');
      expect(await within(status).findByText(copy.leave.requested.body)).toBeInTheDocument();
      expect(status).toHaveTextContent(copy.leave.requested.next);
    });

    it.each([
      ['', 'empty'],
      ['ann@', 'malformed'],
    ] as const)(
      'says what is wrong with %j by the one email rule, and sends nothing',
      async (typed, problem) => {
        const { email, submit, user } = renderForm();
        if (typed) await user.type(email, typed);
        await user.click(submit);

        const message =
          problem === 'empty' ? errors.empty : errors.malformed(messages[locale].signup.exampleEmail);
        expect(screen.getByText(message)).toBeInTheDocument();
        expect(email).toHaveAttribute('aria-invalid', 'true');
        expect(email).toHaveFocus();
        expect(fetchMock).not.toHaveBeenCalled();
      },
    );

    it('says to try again after a fault, announced', async () => {
      fetchMock.mockReturnValue(reply(503, { error: 'unavailable' }));
      const { section, email, submit, user } = renderForm();
      await user.type(email, 'ann@example.nl');
      await user.click(submit);

      expect(
        await within(within(section).getByRole('alert')).findByText(copy.leave.failed),
      ).toBeInTheDocument();
    });
  },
);

describe.each([
  ['nl', '/privacy'],
  ['en', '/en/privacy'],
] as const)('the signup section in %s', (locale, privacyPath) => {
  it(`follows the note with a sentence linking to ${privacyPath}`, () => {
    const copy = messages[locale].signup;
    renderPage(locale);

    const section = screen.getByRole('region', { name: copy.title });
    const link = within(section).getByRole('link', { name: copy.privacyLink });
    expect(link).toHaveAttribute('href', privacyPath);
    expect(link.parentElement).toHaveTextContent(
      copy.privacySentence.replace('{days}', String(PENDING_DAYS)).replace('{link}', copy.privacyLink),
    );
    expect(within(section).getByText(copy.note)).toBeInTheDocument();
  });
});

describe('language switch on the privacy notice', () => {
  const languageLink = (locale: Locale, name: RegExp) =>
    within(screen.getByRole('navigation', { name: messages[locale].common.languageNavLabel })).getByRole(
      'link',
      { name },
    );

  it('offers the notice in each language and switches to /en/privacy and back to /privacy', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/privacy');
    renderPage('nl', 'privacy');
    expect(languageLink('nl', /^EN/)).toHaveAttribute('href', '/en/privacy');

    await user.click(languageLink('nl', /^EN/));

    expect(window.location.pathname).toBe('/en/privacy');
    expect(document.title).toBe(messages.en.meta.privacyTitle);
    expect(screen.getByRole('heading', { level: 1, name: privacyCopy.en.title })).toBeInTheDocument();
    expect(languageLink('en', /^NL/)).toHaveAttribute('href', '/privacy');

    await user.click(languageLink('en', /^NL/));

    expect(window.location.pathname).toBe('/privacy');
    expect(screen.getByRole('heading', { level: 1, name: privacyCopy.nl.title })).toBeInTheDocument();
  });
});

describe('fillIn', () => {
  it('puts each element where its placeholder is, keeping the text around it', () => {
    const { container } = render(<p>{fillIn('See {a} and {b}.', { a: <b>one</b>, b: <i>two</i> })}</p>);
    expect(container.innerHTML).toBe('<p>See <b>one</b> and <i>two</i>.</p>');
  });

  it('refuses a placeholder it has no element for', () => {
    expect(() => fillIn('Mail {emial}.', { email: 'x' })).toThrow('{emial}');
  });
});
