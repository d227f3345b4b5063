import { useState } from 'react';
import { CLIENT_POSTS_PER_MINUTE, MAILS_PER_MAILBOX } from '#contract/abuse-limits';
import { LEAVE_MAIL_INTERVAL_MINUTES, LEAVE_REQUEST_PATH } from '#contract/leave';
import { MAX_CONFIRMATION_MAILS, PENDING_DAYS } from '#contract/waitlist-table';
import { secondaryButton, textLink } from '@/components/control-styles';
import { EmailForm, useEmailField } from '@/components/form-parts';
import { Icon } from '@/components/icons';
import { PageFrame, ResultPage } from '@/components/page-frame';
import { postJson } from '@/components/post-json';
import { siteConfig } from '@/config/site';
import { fillIn } from '@/i18n/fill-in';
import type { IsoDate } from '@/i18n/format';
import { LANGUAGE_STORAGE_KEY, useLanguage } from '@/i18n/language-context';
import { PAGE_PATH } from '@/i18n/page-paths';
import { privacyCopy } from './copy/privacy-copy';

/** Change it together with the copy. */
export const PRIVACY_NOTICE_DATE: IsoDate = '2026-12-07';

type SectionCopy = { title: string } & Record<string, string | Record<string, string>>;

/** GDPR articles 13 and 15-21. */
export function PrivacyPage() {
  const { locale, messages, format } = useLanguage();
  const copy = privacyCopy[locale];
  const { brandName, contactEmail, controller } = siteConfig;
  const facts = {
    brand: brandName,
    controller: controller?.legalName || brandName,
    address: controller?.postalAddress ?? '',
    number: controller?.kvkNumber ?? '',
    email: (
      <a href={`mailto:${contactEmail}`} className={textLink}>
        {contactEmail}
      </a>
    ),
    days: PENDING_DAYS,
    max: MAX_CONFIRMATION_MAILS,
    perMailbox: MAILS_PER_MAILBOX,
    perClient: CLIENT_POSTS_PER_MINUTE,
    minutes: LEAVE_MAIL_INTERVAL_MINUTES,
    region: siteConfig.region,
    country: copy.countries[siteConfig.region],
    key: <code>{LANGUAGE_STORAGE_KEY}</code>,
    authority: (
      <a href="https://autoriteitpersoonsgegevens.nl" lang="nl" className={textLink}>
        {copy.rights.authority}
      </a>
    ),
  };
  // Not paragraphs: the controller's facts the config leaves out, the complaint's link, the leave form's words.
  const unsaid = new Set([
    ...(controller?.postalAddress ? [] : ['postalAddress']),
    ...(controller?.kvkNumber ? [] : ['kvkNumber']),
    ...['authority', 'emailLabel', 'submit', 'sending', 'requested', 'failed'],
  ]);
  // The copy's entries with a title, in its order; in each, a paragraph per text and a list for its `items`.
  const sections = Object.entries<unknown>(copy).filter(
    (entry): entry is [string, SectionCopy] => 'title' in Object(entry[1]),
  );
  const section = ([id, { title, ...texts }]: [string, SectionCopy]) => {
    const summary = id === 'summary';
    const titleId = `${id}-title`;
    return (
      <section
        key={id}
        id={id}
        aria-labelledby={titleId}
        className={summary ? 'mt-8 rounded-2xl bg-white p-6 ring-1 ring-stone-200' : 'mt-10'}
      >
        <h2
          id={titleId}
          className={`text-stone-950 ${summary ? 'text-heading' : 'text-xl font-bold tracking-tight text-balance sm:text-2xl'}`}
        >
          {title}
        </h2>
        <div className="mt-3 space-y-3">
          {Object.entries(texts).map(([key, text]) =>
            unsaid.has(key) ? null : typeof text !== 'string' ? (
              <ul
                key={key}
                className={`list-disc pl-6 marker:text-brand-700 ${summary ? 'space-y-2' : 'space-y-1'}`}
              >
                {Object.entries(text).map(([item, line]) => (
                  <li key={item}>{fillIn(line, facts)}</li>
                ))}
              </ul>
            ) : key === 'form' ? (
              <LeaveRequestForm key={key} />
            ) : (
              <p key={key} id={key === 'link' ? 'leave-link' : undefined}>
                {fillIn(text, facts)}
              </p>
            ),
          )}
        </div>
      </section>
    );
  };
  return (
    <PageFrame>
      <article className="mx-auto max-w-3xl px-4 py-12 leading-relaxed break-words text-stone-700 sm:px-6 sm:py-16">
        <h1 className="text-3xl font-extrabold tracking-tight text-balance text-stone-950 sm:text-5xl">
          {copy.title}
        </h1>
        <p className="mt-3 text-sm text-stone-600">
          {fillIn(copy.updated, {
            date: <time dateTime={PRIVACY_NOTICE_DATE}>{format.date(PRIVACY_NOTICE_DATE)}</time>,
          })}
        </p>
        <p className="mt-6 text-lg text-pretty">{fillIn(copy.intro, facts)}</p>
        {sections.map(section)}
        <p className="mt-12">
          <a href={PAGE_PATH.home[locale]} className={secondaryButton}>
            {messages.common.backToHome}
          </a>
        </p>
      </article>
    </PageFrame>
  );
}

/** Asks for a mail with a leave link; the answer is the same for every valid address. */
function LeaveRequestForm() {
  const { locale } = useLanguage();
  const copy = privacyCopy[locale].leave;
  const field = useEmailField();
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<'requested' | 'failed' | null>(null);
  const send = async (address: string) => {
    setOutcome(null);
    setSending(true);
    const status = (await postJson(LEAVE_REQUEST_PATH, { email: address, language: locale }))?.status;
    setSending(false);
    if (status === 400) {
      field.setProblem('malformed');
      field.inputRef.current?.focus();
    } else setOutcome(status === 202 ? 'requested' : 'failed');
  };
  return (
    <>
      <p>{fillIn(copy.form, { minutes: LEAVE_MAIL_INTERVAL_MINUTES })}</p>
      <EmailForm
        field={field}
        action={LEAVE_REQUEST_PATH}
        className="pt-2"
        copy={copy}
        id="leave-email"
        describedBy="leave-link"
        busy={sending}
        onValid={send}
      />
      {/* Both live regions are always present, so what appears in one is announced. */}
      <div role="status">
        {outcome === 'requested' && (
          <div className="flex items-start gap-3 rounded-2xl bg-white p-4 text-stone-900 ring-1 ring-stone-200">
            <Icon name="mail" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" />
            <div>
              <p className="font-semibold">{copy.requested.body}</p>
              <p className="mt-1 text-stone-700">{copy.requested.next}</p>
            </div>
          </div>
        )}
      </div>
      <div role="alert">
        {outcome === 'failed' && (
          <p className="rounded-2xl bg-red-50 p-4 font-semibold text-red-900 ring-1 ring-red-200">
            {copy.failed}
          </p>
        )}
      </div>
    </>
  );
}

/** The one answer for every valid address, to the privacy notice's leave form posted without a script. */
export function LeaveRequestedPage() {
  const { locale, messages } = useLanguage();
  const { requested } = privacyCopy[locale].leave;
  return (
    <ResultPage
      title={messages.meta.leaveResultTitles['leave-requested']}
      problem={false}
      notice={{ body: requested.body }}
      next={requested.next}
      action={{ href: PAGE_PATH.home[locale], label: messages.common.backToHome }}
    />
  );
}
