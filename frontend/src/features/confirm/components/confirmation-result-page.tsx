import type { ConfirmResultPage } from '#contract/confirmation';
import { ResultPage } from '@/components/result-summary';
import { useLanguage } from '@/i18n/language-context';
import { confirmResultSummary } from './confirm-result';

/**
 * Where the confirmation page's form lands when it was posted without a script: the API answers 303 to
 * one of these, in the page's language (#contract/confirmation). Each says what happened and what to do.
 */
export function ConfirmationResultPage({ result }: { result: ConfirmResultPage }) {
  const { locale, messages } = useLanguage();
  return <ResultPage {...confirmResultSummary(result, { locale, messages, shown: 'own-page' })} />;
}
