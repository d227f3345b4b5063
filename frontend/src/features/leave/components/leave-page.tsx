import { LEAVE_PATH, LEAVE_TOKEN_FIELD, LEAVE_TOKEN_PLACEHOLDER } from '#contract/leave';
import { postJson } from '@/components/post-json';
import { type TokenFlow, TokenPage, TokenResultPage, tokenReader } from '@/components/token-page';
import { leaveCopy } from '@/features/leave/copy/leave-copy';

export const leaveTokenOfPage = tokenReader(LEAVE_TOKEN_PLACEHOLDER);

async function requestToLeave(token: string): Promise<'done' | 'try-again'> {
  const response = await postJson(LEAVE_PATH, { [LEAVE_TOKEN_FIELD]: token });
  return response?.status === 200 && response.answer?.result === 'done' ? 'done' : 'try-again';
}

// The same answer whoever the link belonged to: the page tells nobody whether an address is listed.
const leave: TokenFlow<'done'> = {
  action: LEAVE_PATH,
  title: (meta) => meta.leaveTitle,
  resultTitle: (result, meta) => meta.leaveResultTitles[`leave-${result}`],
  copy: leaveCopy,
  detail: (locale) => leaveCopy[locale].page.nothingYet,
  send: requestToLeave,
  settled: ['done'],
  signUpAgain: ['done'],
};

export const LeavePage = ({ token }: { token: string }) => <TokenPage flow={leave} token={token} />;

export const LeaveResultPage = ({ result }: { result: 'done' | 'try-again' }) => (
  <TokenResultPage flow={leave} result={result} />
);
