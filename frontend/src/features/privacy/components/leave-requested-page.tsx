import { ResultPage } from '@/components/result-summary';
import { privacyCopy } from '@/features/privacy/copy/privacy-copy';
import { useLanguage } from '@/i18n/language-context';
import { PAGE_PATH } from '@/i18n/page-paths';

/**
 * Where the privacy notice's leave form lands when it was posted without a script (#contract/leave): the
 * one answer for every valid address.
 */
export function LeaveRequestedPage() {
  const { locale, messages } = useLanguage();
  const { requested } = privacyCopy[locale].leave;
  return (
    <ResultPage
      title={messages.meta.leaveResultTitles['leave-requested']}
      problem={false}
      notice={{ body: requested.body }}
      next={requested.next}
      action={{ href: PAGE_PATH.home[locale], label: messages.common.backToHome }}
    />
  );
}
