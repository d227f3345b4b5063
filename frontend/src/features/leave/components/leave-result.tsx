import type { Locale } from '#contract/locales';
import { SIGNUP_SECTION_ID } from '@/components/go-to-signup';
import { ResultPage, type ResultSummaryProps } from '@/components/result-summary';
import { leaveCopy } from '@/features/leave/copy/leave-copy';
import { useLanguage } from '@/i18n/language-context';
import type { Messages } from '@/i18n/lazy-messages';
import { leaveResultPage, PAGE_PATH } from '@/i18n/page-paths';

export type LeaveOutcome = 'done' | 'try-again';

/** The same words in place (with the script) and on a result page, except after a fault: in place the button stays. */
export function leaveResultSummary(
  result: LeaveOutcome,
  { locale, messages, shown }: { locale: Locale; messages: Messages; shown: 'in-place' | 'own-page' },
): ResultSummaryProps {
  const copy = leaveCopy[locale];
  const home = PAGE_PATH.home[locale];
  const { body, next } = copy.results[result];
  const fault = result === 'try-again';
  return {
    title: messages.meta.leaveResultTitles[leaveResultPage(result)],
    problem: fault,
    notice: { body },
    next: fault && shown === 'own-page' ? copy.tryAgainWithoutScript : next,
    action: !fault
      ? { href: `${home}#${SIGNUP_SECTION_ID}`, label: copy.signUpAgain }
      : shown === 'own-page'
        ? { href: home, label: messages.common.backToHome }
        : undefined,
  };
}

/** Where the form lands when posted without a script (the API answers 303). */
export function LeaveResultPage({ result }: { result: LeaveOutcome }) {
  const { locale, messages } = useLanguage();
  return <ResultPage {...leaveResultSummary(result, { locale, messages, shown: 'own-page' })} />;
}
