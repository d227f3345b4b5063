import { TOKEN_PLACEHOLDER } from '#contract/confirmation';
import { LEAVE_TOKEN_PLACEHOLDER } from '#contract/leave';
import type { Locale } from '#contract/locales';
import { ConfirmPage } from './features/confirm/components/confirm-page';
import { ConfirmationResultPage } from './features/confirm/components/confirm-result';
import { LeavePage } from './features/leave/components/leave-page';
import { LeaveResultPage } from './features/leave/components/leave-result';
import { NotFoundPage } from './features/not-found/not-found-page';
import { LeaveRequestedPage } from './features/privacy/components/leave-requested-page';
import { PrivacyPage } from './features/privacy/privacy-page';
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
      {page === 'home' ? (
        <LandingPage />
      ) : page === 'privacy' ? (
        <PrivacyPage />
      ) : page === 'confirm' ? (
        <ConfirmPage token={TOKEN_PLACEHOLDER} />
      ) : isWaitlistResultPage(page) ? (
        <WaitlistResultPage result={resultOf(page)} />
      ) : isConfirmResultPage(page) ? (
        <ConfirmationResultPage result={resultOf(page)} />
      ) : page === 'leave' ? (
        <LeavePage token={LEAVE_TOKEN_PLACEHOLDER} />
      ) : isLeaveResultPage(page) ? (
        resultOf(page) === 'requested' ? (
          <LeaveRequestedPage />
        ) : (
          <LeaveResultPage result={resultOf(page) === 'done' ? 'done' : 'try-again'} />
        )
      ) : (
        <NotFoundPage />
      )}
    </LanguageProvider>
  );
}
