import type { ConfirmResultPage } from '#contract/confirmation';
import type { Locale } from '#contract/locales';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { SIGNUP_SECTION_ID } from '@/components/go-to-signup';
import { ResultPage, type ResultSummaryProps } from '@/components/result-summary';
import { siteConfig } from '@/config/site';
import { confirmCopy } from '@/features/confirm/copy/confirm-copy';
import { fillIn } from '@/i18n/fill-in';
import { useLanguage } from '@/i18n/language-context';
import type { Messages } from '@/i18n/lazy-messages';
import { confirmResultPage, PAGE_PATH } from '@/i18n/page-paths';

const SETTLED: readonly ConfirmResultPage[] = ['confirmed', 'already-confirmed'];

/** The same words in place (with the script) and on a result page, except after a fault: in place the button stays. */
export function confirmResultSummary(
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
