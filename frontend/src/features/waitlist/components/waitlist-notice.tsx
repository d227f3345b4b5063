import { Icon } from '@/components/icons';
import type { JoinResult } from '@/features/waitlist/request-to-join';
import { useLanguage } from '@/i18n/language-context';

/**
 * The answer to a signup that did not join, right under the form where the visitor is looking, in the flow
 * of the page: it moves what follows down rather than covering it, at every width. The form puts it in one
 * of its two live regions by `kind`: an address already on the list is neutral news, in the polite one (it
 * says to look for the mail, which holds for anyone who has not confirmed, and tells no more than SPEC's
 * notice); a fault is an alert. It stays until dismissed or replaced, so nobody has to read against a clock.
 */
export function WaitlistNotice({
  result,
  onDismiss,
  kind,
}: {
  result: JoinResult | null;
  onDismiss: () => void;
  kind: 'status' | 'alert';
}) {
  const { messages } = useLanguage();
  const copy = messages.signup;
  const notice =
    result === 'already_registered' && kind === 'status'
      ? { title: copy.notices.duplicateTitle, body: copy.notices.duplicateBody, next: copy.notConfirmedYet }
      : result === 'failed' && kind === 'alert'
        ? { title: copy.notices.errorTitle, body: copy.notices.errorBody }
        : null;
  if (!notice) return null;
  const fault = kind === 'alert';

  return (
    <div
      className={`mt-3 flex items-start gap-3 rounded-2xl p-4 shadow-sm ring-1 ${
        fault ? 'bg-red-700 text-white ring-red-800' : 'bg-white text-stone-900 ring-stone-200'
      }`}
    >
      <Icon
        name={fault ? 'alert' : 'mail'}
        className={`mt-0.5 h-5 w-5 shrink-0 ${fault ? '' : 'text-brand-700'}`}
      />
      <div className="min-w-0 flex-1">
        <p className="font-bold">{notice.title}</p>
        <p className="mt-0.5 text-sm">{notice.body}</p>
        {notice.next && <p className="mt-2 text-sm text-stone-700">{notice.next}</p>}
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
}
