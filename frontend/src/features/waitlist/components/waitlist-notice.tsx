import { Icon } from '@/components/icons';
import type { JoinResult } from '@/features/waitlist/request-to-join';
import { useLanguage } from '@/i18n/language-context';

/**
 * A signup that did not join, in the flow under the form: "already registered" is neutral news for the
 * polite live region, a fault an alert. It stays until dismissed, so nobody reads against a clock.
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
