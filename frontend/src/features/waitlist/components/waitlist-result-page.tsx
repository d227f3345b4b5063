import type { MouseEvent } from 'react';
import type { WaitlistResult } from '#contract/waitlist-api';
import { primaryButton } from '../../../components/control-styles';
import { SIGNUP_SECTION_ID } from '../../../components/go-to-signup';
import { Icon } from '../../../components/icons';
import { SiteFooter } from '../../../components/site-footer';
import { SubpageHeader } from '../../../components/subpage-header';
import { useLanguage } from '../../../i18n/language-context';
import { PAGE_PATH, waitlistResultPage } from '../../../i18n/page-paths';

/**
 * Where a signup lands when the form was posted without a script (a slow phone, a blocked chunk): the API
 * answers 303 to one of these, in the form's language. Each says what happened in the words of the notice
 * the script would have shown, and what to do next. The address itself is never on the page or in its URL.
 */
export function WaitlistResultPage({ result }: { result: WaitlistResult }) {
  const { locale, messages } = useLanguage();
  const copy = messages.signup;
  const notices = copy.notices;
  const title = messages.meta.waitlistResultTitles[waitlistResultPage(result)];

  const notice = {
    joined: { title: notices.successTitle, body: notices.successBody, problem: false },
    'already-registered': { title: notices.duplicateTitle, body: notices.duplicateBody, problem: true },
    'invalid-email': { title: undefined, body: copy.errors.malformed(copy.exampleEmail), problem: true },
    'try-again': { title: notices.errorTitle, body: notices.errorBody, problem: true },
  }[result];
  const backToForm = result === 'invalid-email' || result === 'try-again';
  const next =
    result === 'try-again'
      ? `${copy.resultPages.notSaved} ${copy.resultPages.browserBack}`
      : result === 'invalid-email'
        ? copy.resultPages.browserBack
        : result === 'joined'
          ? copy.note
          : copy.resultPages.nothingToDo;

  return (
    <>
      <SubpageHeader />
      <main id="main" className="bg-paper">
        <div className="mx-auto max-w-xl px-4 py-16 sm:px-6 sm:py-24">
          <span
            className={`inline-flex h-12 w-12 items-center justify-center rounded-full ${
              notice.problem ? 'bg-red-100 text-red-700' : 'bg-brand-100 text-brand-800'
            }`}
          >
            <Icon name={notice.problem ? 'alert' : 'check'} />
          </span>
          <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-balance text-stone-950 sm:text-4xl">
            {title}
          </h1>
          <div
            className={`mt-6 rounded-2xl p-4 ring-1 ${
              notice.problem
                ? 'bg-red-50 text-red-900 ring-red-200'
                : 'bg-white text-stone-900 ring-stone-200'
            }`}
          >
            {notice.title && <p className="font-bold">{notice.title}</p>}
            <p className={notice.title ? 'mt-0.5' : 'font-semibold'}>{notice.body}</p>
          </div>
          <p className="mt-4 text-pretty text-stone-700">{next}</p>
          <p className="mt-8">
            {backToForm ? (
              <a
                href={`${PAGE_PATH.home[locale]}#${SIGNUP_SECTION_ID}`}
                onClick={returnToTypedAddress}
                className={primaryButton}
              >
                {copy.resultPages.backToForm}
              </a>
            ) : (
              <a href={PAGE_PATH.home[locale]} className={primaryButton}>
                {copy.resultPages.backHome}
              </a>
            )}
          </p>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}

/**
 * With a script, "Back to the form" goes back in history when the visitor came from the form, so the
 * browser shows it again with what they typed; without one (or from elsewhere) the link opens the form.
 */
function returnToTypedAddress(event: MouseEvent<HTMLAnchorElement>): void {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
  let from: URL;
  try {
    from = new URL(document.referrer);
  } catch {
    return;
  }
  const cameFromTheForm =
    from.origin === window.location.origin && Object.values(PAGE_PATH.home).includes(from.pathname as '/');
  if (!cameFromTheForm || window.history.length < 2) return;
  event.preventDefault();
  window.history.back();
}
