import type { MouseEvent } from 'react';
import type { WaitlistResult } from '#contract/waitlist-api';
import { SIGNUP_SECTION_ID } from '@/components/go-to-signup';
import { ResultPage } from '@/components/result-summary';
import { resultCopy } from '@/features/waitlist/copy/result-copy';
import { useLanguage } from '@/i18n/language-context';
import { PAGE_PATH, waitlistResultPage } from '@/i18n/page-paths';

/**
 * Where a signup lands when the form was posted without a script (a slow phone, a blocked chunk): the API
 * answers 303 to one of these, in the form's language. Each says what happened in the words of the notice
 * the script would have shown, and what to do next: after joining, as with the script, to look in the
 * inbox (and the spam folder) for the mail; an address already on the list is neutral news, with the same
 * advice for anyone who has not confirmed yet. The address itself is never on the page or in its URL.
 */
export function WaitlistResultPage({ result }: { result: WaitlistResult }) {
  const { locale, messages } = useLanguage();
  const copy = messages.signup;
  const notices = copy.notices;
  const pages = resultCopy[locale];
  const title = messages.meta.waitlistResultTitles[waitlistResultPage(result)];

  const { notice, next, problem } = {
    joined: {
      notice: { title: notices.successTitle, body: notices.successBody },
      next: `${pages.mailSent} ${copy.spamFolder}`,
      problem: false,
    },
    // The heading is the notice's title already.
    'already-registered': {
      notice: { body: notices.duplicateBody },
      next: copy.notConfirmedYet,
      problem: false,
    },
    'invalid-email': {
      notice: { body: copy.errors.malformed(copy.exampleEmail) },
      next: pages.browserBack,
      problem: true,
    },
    'try-again': {
      notice: { title: notices.errorTitle, body: notices.errorBody },
      next: `${pages.notSaved} ${pages.browserBack}`,
      problem: true,
    },
  }[result];
  const backToForm = problem;

  return (
    <ResultPage
      title={title}
      problem={problem}
      icon="mail"
      notice={notice}
      next={next}
      action={
        backToForm
          ? {
              href: `${PAGE_PATH.home[locale]}#${SIGNUP_SECTION_ID}`,
              label: pages.backToForm,
              onClick: returnToTypedAddress,
            }
          : { href: PAGE_PATH.home[locale], label: messages.common.backToHome }
      }
    />
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
