import { TOKEN_PLACEHOLDER } from '#contract/confirmation';
import { LEAVE_TOKEN_PLACEHOLDER } from '#contract/leave';
import type { Locale } from '#contract/locales';
import { ConfirmationResultPage, ConfirmPage } from './features/confirm/components/confirm-page';
import { LeavePage, LeaveResultPage } from './features/leave/components/leave-page';
import { NotFoundPage } from './features/not-found/not-found-page';
import { LeaveRequestedPage, PrivacyPage } from './features/privacy/privacy-page';
import { WaitlistResultPage } from './features/waitlist/components/waitlist-result-page';
import { LanguageProvider } from './i18n/language-context';
import { allMessages } from './i18n/messages';
import type { Page } from './i18n/page-metadata';
import { isConfirmResultPage, isLeaveResultPage, isWaitlistResultPage, resultOf } from './i18n/page-paths';
import { LandingPage } from './pages/landing-page';

/** Every page, for the prerender and the tests; main.tsx shows the same ones, loading most as chunks. */
export function App({ page, initialLocale }: { page: Page; initialLocale: Locale }) {
  return (
    <LanguageProvider page={page} initialLocale={initialLocale} catalog={allMessages}>
      <PageContent page={page} />
    </LanguageProvider>
  );
}

function PageContent({ page }: { page: Page }) {
  if (page === 'home') return <LandingPage />;
  if (page === 'privacy') return <PrivacyPage />;
  if (page === 'confirm') return <ConfirmPage token={TOKEN_PLACEHOLDER} />;
  if (page === 'leave') return <LeavePage token={LEAVE_TOKEN_PLACEHOLDER} />;
  if (isWaitlistResultPage(page)) return <WaitlistResultPage result={resultOf(page)} />;
  if (isConfirmResultPage(page)) return <ConfirmationResultPage result={resultOf(page)} />;
  if (!isLeaveResultPage(page)) return <NotFoundPage />;
  const result = resultOf(page);
  return result === 'requested' ? <LeaveRequestedPage /> : <LeaveResultPage result={result} />;
}
