import { useState } from 'react';
import { LEAVE_MAIL_INTERVAL_MINUTES, LEAVE_REQUEST_PATH } from '#contract/leave';
import { EmailForm, useEmailField } from '@/components/form-parts';
import { Icon } from '@/components/icons';
import { postJson } from '@/components/post-json';
import { privacyCopy } from '@/features/privacy/copy/privacy-copy';
import { fillIn } from '@/i18n/fill-in';
import { useLanguage } from '@/i18n/language-context';

/** Asks for a mail with a leave link; the answer is the same for every valid address. */
export function LeaveRequestForm({ describedBy }: { describedBy: string }) {
  const { locale } = useLanguage();
  const copy = privacyCopy[locale].leave;
  const field = useEmailField();
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<'requested' | 'failed' | null>(null);
  const send = async (address: string) => {
    setOutcome(null);
    setSending(true);
    const status = (await postJson(LEAVE_REQUEST_PATH, { email: address, language: locale }))?.status;
    setSending(false);
    if (status === 400) {
      field.setProblem('malformed');
      field.inputRef.current?.focus();
    } else setOutcome(status === 202 ? 'requested' : 'failed');
  };
  return (
    <>
      <p>{fillIn(copy.form, { minutes: LEAVE_MAIL_INTERVAL_MINUTES })}</p>
      <EmailForm
        field={field}
        action={LEAVE_REQUEST_PATH}
        className="pt-2"
        copy={copy}
        describedBy={describedBy}
        busy={sending}
        onValid={send}
      />
      {/* Both live regions are always present, so what appears in one is announced. */}
      <div role="status">
        {outcome === 'requested' && (
          <div className="flex items-start gap-3 rounded-2xl bg-white p-4 text-stone-900 ring-1 ring-stone-200">
            <Icon name="mail" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" />
            <div>
              <p className="font-semibold">{copy.requested.body}</p>
              <p className="mt-1 text-stone-700">{copy.requested.next}</p>
            </div>
          </div>
        )}
      </div>
      <div role="alert">
        {outcome === 'failed' && (
          <p className="rounded-2xl bg-red-50 p-4 font-semibold text-red-900 ring-1 ring-red-200">
            {copy.failed}
          </p>
        )}
      </div>
    </>
  );
}
