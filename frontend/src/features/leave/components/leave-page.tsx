import {
  LEAVE_PATH,
  LEAVE_TOKEN_FIELD,
  LEAVE_TOKEN_PARAMETER,
  LEAVE_TOKEN_PLACEHOLDER,
} from '#contract/leave';
import { postJson } from '@/components/post-json';
import { TokenPage, tokenReader } from '@/components/token-page';
import { leaveCopy } from '@/features/leave/copy/leave-copy';
import { useLanguage } from '@/i18n/language-context';
import { type LeaveOutcome, leaveResultSummary } from './leave-result';

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
