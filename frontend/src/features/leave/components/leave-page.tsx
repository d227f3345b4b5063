import {
  LEAVE_PATH,
  LEAVE_TOKEN_FIELD,
  LEAVE_TOKEN_PARAMETER,
  LEAVE_TOKEN_PLACEHOLDER,
} from '#contract/leave';
import { TokenPage, type TokenPlaces, tokenIn } from '@/components/token-page';
import { siteConfig } from '@/config/site';
import { leaveCopy } from '@/features/leave/copy/leave-copy';
import { type LeaveOutcome, requestToLeave } from '@/features/leave/request-to-leave';
import { fillIn } from '@/i18n/fill-in';
import { useLanguage } from '@/i18n/language-context';
import { leaveResultSummary } from './leave-result';

const PLACES: TokenPlaces = {
  parameter: LEAVE_TOKEN_PARAMETER,
  field: LEAVE_TOKEN_FIELD,
  placeholder: LEAVE_TOKEN_PLACEHOLDER,
};

export const leaveTokenOfPage = (root: ParentNode, search: string) => tokenIn(root, search, PLACES);

/**
 * The page a leave link in a mail opens (served by the API, #contract/leave). Whoever the link belonged
 * to, the answer is the same, so the page tells nobody whether an address is on the list.
 */
export function LeavePage({ token }: { token: string }) {
  const { locale, messages } = useLanguage();
  const copy = leaveCopy[locale];
  return (
    <TokenPage<LeaveOutcome>
      token={token}
      places={PLACES}
      action={LEAVE_PATH}
      title={messages.meta.leaveTitle}
      intro={
        <>
          <p className="mt-6 text-lg text-pretty text-stone-800">
            {fillIn(copy.page.intro, { brand: siteConfig.brandName })}
          </p>
          <p className="mt-3 text-pretty text-stone-700">{copy.page.nothingYet}</p>
        </>
      }
      button={copy.page.button}
      sending={copy.page.sending}
      send={requestToLeave}
      summarize={(result) => leaveResultSummary(result, { locale, messages, shown: 'in-place' })}
      isFinal={(result) => result === 'done'}
    />
  );
}
