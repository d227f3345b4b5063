import { ResultPage } from '@/components/result-summary';
import { privacyCopy } from '@/features/privacy/copy/privacy-copy';
import { useLanguage } from '@/i18n/language-context';
import { PAGE_PATH } from '@/i18n/page-paths';

/** The one answer for every valid address, to the privacy notice's leave form posted without a script. */
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
