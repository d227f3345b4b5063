import { ResultPage } from '@/components/result-summary';
import type { LeaveOutcome } from '@/features/leave/request-to-leave';
import { useLanguage } from '@/i18n/language-context';
import { leaveResultSummary } from './leave-result';

/**
 * Where the leave page's form lands when it was posted without a script: the API answers 303 to one of
 * these, in the page's language (#contract/leave). The same page whoever the link belonged to.
 */
export function LeaveResultPage({ result }: { result: LeaveOutcome }) {
  const { locale, messages } = useLanguage();
  return <ResultPage {...leaveResultSummary(result, { locale, messages, shown: 'own-page' })} />;
}
