import type { Locale } from '#contract/locales';
import { SIGNUP_SECTION_ID } from '@/components/go-to-signup';
import type { ResultSummaryProps } from '@/components/result-summary';
import { leaveCopy } from '@/features/leave/copy/leave-copy';
import type { LeaveOutcome } from '@/features/leave/request-to-leave';
import type { Messages } from '@/i18n/message-catalog';
import { leaveResultPage, PAGE_PATH } from '@/i18n/page-paths';

/**
 * What the visitor is told after pressing "leave": on the leave page itself (`in-place`, with the script),
 * or on a result page of its own (`own-page`, a form post without one). The same words either way, except
 * what to do after a fault: in place the button is still there.
 */
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
