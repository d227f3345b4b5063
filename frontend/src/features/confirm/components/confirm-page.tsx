import { CONFIRM_PATH, TOKEN_FIELD, TOKEN_PARAMETER, TOKEN_PLACEHOLDER } from '#contract/confirmation';
import { textLink } from '@/components/control-styles';
import { TokenPage, tokenReader } from '@/components/token-page';
import { confirmCopy } from '@/features/confirm/copy/confirm-copy';
import { requestToConfirm } from '@/features/confirm/request-to-confirm';
import { fillIn } from '@/i18n/fill-in';
import { useLanguage } from '@/i18n/language-context';
import { pageMetadata } from '@/i18n/page-metadata';
import { confirmResultPage, PAGE_PATH } from '@/i18n/page-paths';
import { confirmResultSummary } from './confirm-result';

export const tokenOfPage = tokenReader(TOKEN_PARAMETER, TOKEN_FIELD, TOKEN_PLACEHOLDER);

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
      isFinal={(result) => result !== 'try-again'}
      finalTitle={(result) => pageMetadata(confirmResultPage(result), locale, messages.meta).title}
    />
  );
}
