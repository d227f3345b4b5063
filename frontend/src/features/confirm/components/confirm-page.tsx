import {
  CONFIRM_HTTP_STATUS,
  CONFIRM_PATH,
  CONFIRM_RESULTS,
  type ConfirmRequest,
  type ConfirmResultPage,
  TOKEN_FIELD,
  TOKEN_PARAMETER,
  TOKEN_PLACEHOLDER,
} from '#contract/confirmation';
import { textLink } from '@/components/control-styles';
import { postJson } from '@/components/post-json';
import { TokenPage, tokenReader } from '@/components/token-page';
import { confirmCopy } from '@/features/confirm/copy/confirm-copy';
import { fillIn } from '@/i18n/fill-in';
import { useLanguage } from '@/i18n/language-context';
import { pageMetadata } from '@/i18n/page-metadata';
import { confirmResultPage, PAGE_PATH } from '@/i18n/page-paths';
import { confirmResultSummary } from './confirm-result';

export const tokenOfPage = tokenReader(TOKEN_PARAMETER, TOKEN_FIELD, TOKEN_PLACEHOLDER);

/** A request refused as such (400, 413) comes from a broken link; any other non-result may pass on a retry. */
async function requestToConfirm(token: string): Promise<ConfirmResultPage> {
  const response = await postJson(CONFIRM_PATH, { token } satisfies ConfirmRequest);
  const status = response?.status;
  if (status === CONFIRM_HTTP_STATUS.invalid_request || status === CONFIRM_HTTP_STATUS.payload_too_large)
    return 'invalid';
  const result = status === CONFIRM_HTTP_STATUS.result ? response?.answer?.result : null;
  return CONFIRM_RESULTS.find((each) => each === result) ?? 'try-again';
}

export function ConfirmPage({ token }: { token: string }) {
  const { locale, messages } = useLanguage();
  const copy = confirmCopy[locale];
  return (
    <TokenPage
      token={token}
      parameter={TOKEN_PARAMETER}
      field={TOKEN_FIELD}
      action={CONFIRM_PATH}
      title={messages.meta.confirmTitle}
      mascot
      copy={copy.page}
      detail={fillIn(copy.page.kept, {
        link: (
          <a href={PAGE_PATH.privacy[locale]} className={textLink}>
            {copy.page.privacyLink}
          </a>
        ),
      })}
      send={requestToConfirm}
      summarize={(result) => confirmResultSummary(result, { locale, messages, shown: 'in-place' })}
      finalTitle={(result) => pageMetadata(confirmResultPage(result), locale, messages.meta).title}
    />
  );
}
