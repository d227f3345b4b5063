import {
  CONFIRM_HTTP_STATUS,
  CONFIRM_PATH,
  CONFIRM_RESULTS,
  type ConfirmRequest,
  type ConfirmResult,
  type ConfirmResultPage,
  TOKEN_PLACEHOLDER,
} from '#contract/confirmation';
import { textLink } from '@/components/control-styles';
import { postJson } from '@/components/post-json';
import { type TokenFlow, TokenPage, TokenResultPage, tokenReader } from '@/components/token-page';
import { confirmCopy } from '@/features/confirm/copy/confirm-copy';
import { fillIn } from '@/i18n/fill-in';
import { PAGE_PATH } from '@/i18n/page-paths';

export const tokenOfPage = tokenReader(TOKEN_PLACEHOLDER);

/** A request refused as such (400, 413) comes from a broken link; any other non-result may pass on a retry. */
async function requestToConfirm(token: string): Promise<ConfirmResultPage> {
  const response = await postJson(CONFIRM_PATH, { token } satisfies ConfirmRequest);
  const status = response?.status;
  if (status === CONFIRM_HTTP_STATUS.invalid_request || status === CONFIRM_HTTP_STATUS.payload_too_large)
    return 'invalid';
  const result = status === CONFIRM_HTTP_STATUS.result ? response?.answer?.result : null;
  return CONFIRM_RESULTS.find((each) => each === result) ?? 'try-again';
}

const confirm: TokenFlow<ConfirmResult> = {
  action: CONFIRM_PATH,
  title: (meta) => meta.confirmTitle,
  resultTitle: (result, meta) => meta.confirmResultTitles[`confirm-${result}`],
  copy: confirmCopy,
  detail: (locale, messages) =>
    fillIn(confirmCopy[locale].page.kept, {
      link: (
        <a href={PAGE_PATH.privacy[locale]} className={textLink}>
          {messages.signup.privacyLink}
        </a>
      ),
    }),
  send: requestToConfirm,
  settled: ['confirmed', 'already-confirmed'],
  signUpAgain: ['expired', 'unknown'],
  moment: true,
};

export const ConfirmPage = ({ token }: { token: string }) => <TokenPage flow={confirm} token={token} />;

export const ConfirmationResultPage = ({ result }: { result: ConfirmResultPage }) => (
  <TokenResultPage flow={confirm} result={result} />
);
