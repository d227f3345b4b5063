import {
  LEAVE_PATH,
  LEAVE_TOKEN_FIELD,
  LEAVE_TOKEN_PARAMETER,
  LEAVE_TOKEN_PLACEHOLDER,
} from '#contract/leave';
import type { Locale } from '#contract/locales';
import { SIGNUP_SECTION_ID } from '@/components/go-to-signup';
import { postJson } from '@/components/post-json';
import { ResultPage, type ResultSummaryProps } from '@/components/result-summary';
import { TokenPage, tokenReader } from '@/components/token-page';
import { leaveCopy } from '@/features/leave/copy/leave-copy';
import { useLanguage } from '@/i18n/language-context';
import type { Messages } from '@/i18n/lazy-messages';
import { leaveResultPage, PAGE_PATH } from '@/i18n/page-paths';

export const leaveTokenOfPage = tokenReader(
  LEAVE_TOKEN_PARAMETER,
  LEAVE_TOKEN_FIELD,
  LEAVE_TOKEN_PLACEHOLDER,
);

async function requestToLeave(token: string): Promise<LeaveOutcome> {
  const response = await postJson(LEAVE_PATH, { [LEAVE_TOKEN_FIELD]: token });
  return response?.status === 200 && response.answer?.result === 'done' ? 'done' : 'try-again';
}

// The same answer whoever the link belonged to: the page tells nobody whether an address is listed.
export function LeavePage({ token }: { token: string }) {
  const { locale, messages } = useLanguage();
  const copy = leaveCopy[locale];
  return (
    <TokenPage
      token={token}
      parameter={LEAVE_TOKEN_PARAMETER}
      field={LEAVE_TOKEN_FIELD}
      action={LEAVE_PATH}
      title={messages.meta.leaveTitle}
      copy={copy.page}
      detail={copy.page.nothingYet}
      send={requestToLeave}
      summarize={(result) => leaveResultSummary(result, { locale, messages, shown: 'in-place' })}
    />
  );
}

type LeaveOutcome = 'done' | 'try-again';

/** The same words in place (with the script) and on a result page, except after a fault: in place the button stays. */
function leaveResultSummary(
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
