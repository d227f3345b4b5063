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
import type { Locale } from '#contract/locales';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { textLink } from '@/components/control-styles';
import { SIGNUP_SECTION_ID } from '@/components/go-to-signup';
import { postJson } from '@/components/post-json';
import { ResultPage, type ResultSummaryProps } from '@/components/result-summary';
import { TokenPage, tokenReader } from '@/components/token-page';
import { siteConfig } from '@/config/site';
import { confirmCopy } from '@/features/confirm/copy/confirm-copy';
import { fillIn } from '@/i18n/fill-in';
import { useLanguage } from '@/i18n/language-context';
import type { Messages } from '@/i18n/lazy-messages';
import { pageMetadata } from '@/i18n/page-metadata';
import { confirmResultPage, PAGE_PATH } from '@/i18n/page-paths';

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
            {messages.signup.privacyLink}
          </a>
        ),
      })}
      send={requestToConfirm}
      summarize={(result) => confirmResultSummary(result, { locale, messages, shown: 'in-place' })}
      finalTitle={(result) => pageMetadata(confirmResultPage(result), locale, messages.meta).title}
    />
  );
}

const SETTLED: readonly ConfirmResultPage[] = ['confirmed', 'already-confirmed'];

/** The same words in place (with the script) and on a result page, except after a fault: in place the button stays. */
function confirmResultSummary(
  result: ConfirmResultPage,
  { locale, messages, shown }: { locale: Locale; messages: Messages; shown: 'in-place' | 'own-page' },
): ResultSummaryProps {
  const copy = confirmCopy[locale];
  const facts = { brand: siteConfig.brandName, days: PENDING_DAYS };
  const home = PAGE_PATH.home[locale];
  const { body, next } = copy.results[result];
  const faultWithoutButton = result === 'try-again' && shown === 'own-page';
  return {
    title: messages.meta.confirmResultTitles[confirmResultPage(result)],
    problem: !SETTLED.includes(result),
    mascot: SETTLED.includes(result),
    notice: { body: fillIn(body, facts) },
    next: faultWithoutButton ? copy.tryAgainWithoutScript : fillIn(next, facts),
    action:
      result === 'try-again' && shown === 'in-place'
        ? undefined
        : result === 'expired' || result === 'unknown'
          ? { href: `${home}#${SIGNUP_SECTION_ID}`, label: copy.signUpAgain }
          : { href: home, label: messages.common.backToHome },
  };
}

/** Where the form lands when posted without a script (the API answers 303). */
export function ConfirmationResultPage({ result }: { result: ConfirmResultPage }) {
  const { locale, messages } = useLanguage();
  return <ResultPage {...confirmResultSummary(result, { locale, messages, shown: 'own-page' })} />;
}
