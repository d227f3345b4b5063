import type { ReactNode } from 'react';
import { CLIENT_POSTS_PER_MINUTE, MAILS_PER_MAILBOX } from '#contract/abuse-limits';
import { MAX_CONFIRMATION_MAILS, PENDING_DAYS } from '#contract/waitlist-table';
import { secondaryButton, textLink } from '@/components/control-styles';
import { SiteFooter } from '@/components/site-footer';
import { SubpageHeader } from '@/components/subpage-header';
import { siteConfig } from '@/config/site';
import { fillIn, fillInText } from '@/i18n/fill-in';
import type { IsoDate } from '@/i18n/format';
import { useLanguage } from '@/i18n/language-context';
import { LANGUAGE_STORAGE_KEY } from '@/i18n/language-preference';
import { PAGE_PATH } from '@/i18n/page-paths';
import { LeaveRequestForm } from './components/leave-request-form';
import { privacyCopy } from './copy/privacy-copy';

/** The day this notice last changed; change it together with its copy (copy/en.ts and copy/nl.ts). */
export const PRIVACY_NOTICE_DATE: IsoDate = '2026-11-26';

/** The section on leaving the waitlist, with its form: /privacy#leave. */
export const LEAVE_SECTION_ID = 'leave';

/** Where a visitor can complain about how their data is handled: the Dutch data protection authority. */
export const DATA_PROTECTION_AUTHORITY_URL = 'https://autoriteitpersoonsgegevens.nl';

function NoticeSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const titleId = `${id}-title`;
  return (
    <section id={id} aria-labelledby={titleId} className="mt-10">
      <h2 id={titleId} className="text-xl font-bold tracking-tight text-balance text-stone-950 sm:text-2xl">
        {title}
      </h2>
      <div className="mt-3 space-y-3">{children}</div>
    </section>
  );
}

function BulletList({ items }: { items: ReactNode[] }) {
  return (
    <ul className="list-disc space-y-1 pl-6 marker:text-brand-700">
      {items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list from the copy, never reordered.
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}

/**
 * What the waitlist keeps about a visitor, why, for how long and what they may ask (GDPR articles 13 and
 * 15-21), at /privacy and /en/privacy.
 */
export function PrivacyPage() {
  const { locale, messages, format } = useLanguage();
  const copy = privacyCopy[locale];
  const { brandName, contactEmail, controller } = siteConfig;
  const homePath = PAGE_PATH.home[locale];
  const email = (
    <a href={`mailto:${contactEmail}`} className={textLink}>
      {contactEmail}
    </a>
  );
  const brand = { brand: brandName };
  const maxMails = { max: MAX_CONFIRMATION_MAILS };
  const leaveLinkId = `${LEAVE_SECTION_ID}-link`;

  return (
    <>
      <SubpageHeader />
      <main id="main" className="bg-paper">
        <article className="mx-auto max-w-3xl px-4 py-12 leading-relaxed break-words text-stone-700 sm:px-6 sm:py-16">
          <h1 className="text-3xl font-extrabold tracking-tight text-balance text-stone-950 sm:text-5xl">
            {copy.title}
          </h1>
          <p className="mt-3 text-sm text-stone-600">
            {fillIn(copy.updated, {
              date: <time dateTime={PRIVACY_NOTICE_DATE}>{format.date(PRIVACY_NOTICE_DATE)}</time>,
            })}
          </p>
          <p className="mt-6 text-lg text-pretty">{fillIn(copy.intro, brand)}</p>

          {/* The notice in five lines before its sections: on a phone the whole of it is many screens long. */}
          <section
            aria-labelledby="summary-title"
            className="mt-8 rounded-2xl bg-white p-6 ring-1 ring-stone-200"
          >
            <h2 id="summary-title" className="text-heading text-stone-950">
              {copy.summary.title}
            </h2>
            <ul className="mt-3 list-disc space-y-2 pl-6 marker:text-brand-700">
              {Object.entries(copy.summary.items).map(([key, line]) => (
                <li key={key}>{fillIn(line, { ...brand, days: PENDING_DAYS, email })}</li>
              ))}
            </ul>
          </section>

          {/* GDPR article 13(1)(a): the controller's identity and contact details, as far as the config has them. */}
          <NoticeSection id="controller" title={copy.controller.title}>
            <p>
              {fillIn(copy.controller.body, { controller: controller?.legalName || brandName, email })}
              {controller?.postalAddress &&
                ` ${fillInText(copy.controller.postalAddress, { address: controller.postalAddress })}`}
              {controller?.kvkNumber &&
                ` ${fillInText(copy.controller.kvkNumber, { number: controller.kvkNumber })}`}
            </p>
          </NoticeSection>

          <NoticeSection id="data" title={copy.data.title}>
            <p>{copy.data.lead}</p>
            <BulletList
              items={[
                copy.data.items.email,
                copy.data.items.language,
                copy.data.items.createdAt,
                copy.data.items.consentVersion,
                copy.data.items.confirmation,
                fillIn(copy.data.items.mails, maxMails),
                copy.data.items.tokenHash,
                copy.data.items.undeliverable,
                copy.data.items.leaveKey,
                copy.data.items.leaveRequested,
                copy.data.items.announcements,
                copy.data.items.source,
              ]}
            />
            <p>{copy.data.nothingElse}</p>
          </NoticeSection>

          <NoticeSection id="purpose" title={copy.purpose.title}>
            <p>{fillIn(copy.purpose.body, brand)}</p>
            <p>{fillIn(copy.purpose.confirmation, maxMails)}</p>
            <p>{copy.purpose.basis}</p>
          </NoticeSection>

          <NoticeSection id="retention" title={copy.retention.title}>
            <p>{fillIn(copy.retention.pending, { days: PENDING_DAYS })}</p>
            <p>{fillIn(copy.retention.body, brand)}</p>
          </NoticeSection>

          <NoticeSection id="storage" title={copy.storage.title}>
            <p>{copy.storage.body}</p>
            <p>{copy.storage.mail}</p>
          </NoticeSection>

          <NoticeSection id="limits" title={copy.limits.title}>
            <p>
              {fillIn(copy.limits.body, {
                perMailbox: MAILS_PER_MAILBOX,
                perClient: CLIENT_POSTS_PER_MINUTE,
              })}
            </p>
            <p>{copy.limits.undeliverable}</p>
          </NoticeSection>

          <NoticeSection id="logs" title={copy.logs.title}>
            <p>{copy.logs.body}</p>
          </NoticeSection>

          <NoticeSection id="counting" title={copy.counting.title}>
            <p>{copy.counting.visits}</p>
            <p>{copy.counting.source}</p>
            <p>{copy.counting.noCookie}</p>
            <p>{copy.counting.basis}</p>
          </NoticeSection>

          <NoticeSection id="browser" title={copy.browser.title}>
            <p>{fillIn(copy.browser.body, { key: <code>{LANGUAGE_STORAGE_KEY}</code> })}</p>
          </NoticeSection>

          <NoticeSection id={LEAVE_SECTION_ID} title={copy.leave.title}>
            <p id={leaveLinkId}>{copy.leave.link}</p>
            <LeaveRequestForm describedBy={leaveLinkId} />
            <p>{copy.leave.counted}</p>
          </NoticeSection>

          <NoticeSection id="rights" title={copy.rights.title}>
            <p>{copy.rights.lead}</p>
            <BulletList
              items={[
                copy.rights.items.access,
                copy.rights.items.rectification,
                copy.rights.items.erasure,
                copy.rights.items.withdraw,
              ]}
            />
            <p>{copy.rights.leave}</p>
            <p>{fillIn(copy.rights.howTo, { email })}</p>
            <p>
              {fillIn(copy.rights.complaint, {
                authority: (
                  <a href={DATA_PROTECTION_AUTHORITY_URL} lang="nl" className={textLink}>
                    {copy.rights.authority}
                  </a>
                ),
              })}
            </p>
          </NoticeSection>

          <p className="mt-12">
            <a href={homePath} className={secondaryButton}>
              {messages.common.backToHome}
            </a>
          </p>
        </article>
      </main>
      <SiteFooter />
    </>
  );
}
