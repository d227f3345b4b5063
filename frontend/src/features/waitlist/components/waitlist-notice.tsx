import { Icon } from '../../../components/icons';
import { useLanguage } from '../../../i18n/language-context';
import type { JoinResult } from '../request-to-join';

/**
 * The answer to a signup, right under the form where the visitor is looking, in the flow of the page: it
 * moves what follows down rather than covering it, at every width. Both live regions are always in the page
 * (empty, they take no room), so a notice that appears is announced: politely for success, at once for a
 * problem. It stays until dismissed or replaced, so nobody has to read against a clock.
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
      className={`mt-3 flex items-start gap-3 rounded-2xl p-4 shadow-sm ring-1 ${
        notice.destructive ? 'bg-red-700 text-white ring-red-800' : 'bg-white text-stone-900 ring-brand-200'
      }`}
    >
      <Icon
        name={notice.destructive ? 'alert' : 'check'}
        className={`mt-0.5 h-5 w-5 shrink-0 ${notice.destructive ? '' : 'text-brand-700'}`}
      />
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
    <div className="mx-auto max-w-xl">
      <div role="status">{notice && !notice.destructive && card}</div>
      <div role="alert">{notice?.destructive && card}</div>
    </div>
  );
}
