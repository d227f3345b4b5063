import { Icon } from '../../../components/icons';
import { useLanguage } from '../../../i18n/language-context';
import type { JoinResult } from '../request-to-join';

/**
 * The answer to a signup, as a notice in the corner of the screen. Both live regions are always in the
 * page, so a notice that appears is announced: politely for success, at once for a problem. It stays
 * until dismissed or replaced, so nobody has to read against a clock.
 */
export function WaitlistNotice({ result, onDismiss }: { result: JoinResult | null; onDismiss: () => void }) {
  const { messages } = useLanguage();
  const copy = messages.signup;
  const notice =
    result === 'joined'
      ? { title: copy.notices.successTitle, body: copy.notices.successBody, destructive: false }
      : result === 'already_registered'
        ? { title: copy.notices.duplicateTitle, body: copy.notices.duplicateBody, destructive: true }
        : result === 'failed'
          ? { title: copy.notices.errorTitle, body: copy.notices.errorBody, destructive: true }
          : null;

  const card = notice && (
    <div
      className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-2xl p-4 shadow-xl ring-1 ${
        notice.destructive ? 'bg-red-700 text-white ring-red-800' : 'bg-white text-stone-900 ring-stone-200'
      }`}
    >
      <div className="min-w-0 flex-1">
        <p className="font-bold">{notice.title}</p>
        <p className="mt-0.5 text-sm">{notice.body}</p>
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label={copy.dismissNotice}
        className="-m-1 inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-full hover:bg-black/10 focus-visible:outline-3 focus-visible:outline-current"
      >
        <Icon name="close" className="h-4 w-4" />
      </button>
    </div>
  );

  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-0 z-40 p-4">
      <div role="status" className="flex justify-center sm:justify-end">
        {notice && !notice.destructive && card}
      </div>
      <div role="alert" className="flex justify-center sm:justify-end">
        {notice?.destructive && card}
      </div>
    </div>
  );
}
