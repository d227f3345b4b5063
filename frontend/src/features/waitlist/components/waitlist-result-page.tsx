import type { MouseEvent } from 'react';
import type { WaitlistResult } from '#contract/waitlist-api';
import { isPlainClick, SIGNUP_SECTION_ID } from '@/components/go-to-signup';
import { ResultPage } from '@/components/page-frame';
import { resultCopy } from '@/features/waitlist/copy/result-copy';
import { useLanguage } from '@/i18n/language-context';
import { PAGE_PATH } from '@/i18n/page-paths';

/** Where a form posted without a script lands, in the words the script would have shown; never the address. */
export function WaitlistResultPage({ result }: { result: WaitlistResult }) {
  const { locale, messages } = useLanguage();
  const copy = messages.signup;
  const { notices } = copy;
  const pages = resultCopy[locale];
  const problem = result === 'invalid-email' || result === 'try-again';
  const { notice, next } = {
    joined: {
      notice: { title: notices.successTitle, body: notices.successBody },
      next: `${pages.mailSent} ${copy.spamFolder}`,
    },
    // The heading is the notice's title already.
    'already-registered': { notice: { body: notices.duplicateBody }, next: copy.notConfirmedYet },
    'invalid-email': { notice: { body: copy.errors.malformed(copy.exampleEmail) }, next: pages.browserBack },
    'try-again': {
      notice: { title: notices.errorTitle, body: notices.errorBody },
      next: `${pages.notSaved} ${pages.browserBack}`,
    },
  }[result];
  return (
    <ResultPage
      title={messages.meta.waitlistResultTitles[`waitlist-${result}`]}
      problem={problem}
      icon="mail"
      notice={notice}
      next={next}
      action={
        problem
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

/** Back in history when the visitor came from the form, so the browser shows what they typed. */
function returnToTypedAddress(event: MouseEvent<HTMLAnchorElement>): void {
  if (!isPlainClick(event)) return;
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
