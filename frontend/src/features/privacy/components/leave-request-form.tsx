import { type FormEvent, useId, useRef, useState } from 'react';
import { checkEmail, type EmailProblem } from '#contract/email-address';
import { LEAVE_MAIL_INTERVAL_MINUTES, LEAVE_REQUEST_PATH } from '#contract/leave';
import { primaryButton } from '@/components/control-styles';
import { EmailInput, emailProblemText, FIELD_ROW, FieldError, useScripted } from '@/components/form-parts';
import { Icon } from '@/components/icons';
import { Spinner } from '@/components/spinner';
import { privacyCopy } from '@/features/privacy/copy/privacy-copy';
import { type LeaveLinkOutcome, requestLeaveLink } from '@/features/privacy/request-leave-link';
import { fillIn } from '@/i18n/fill-in';
import { useLanguage } from '@/i18n/language-context';

/**
 * The privacy notice's form for a person without a mail at hand: it asks for a mail with the leave link.
 * Without a script it posts a plain form and the API answers with a result page; with one, the address
 * is checked by the one rule, sent with fetch, and the answer shown under the form. The answer is the same
 * for every valid address: nobody learns from it who is on the list.
 */
export function LeaveRequestForm({ describedBy }: { describedBy: string }) {
  const { locale, messages } = useLanguage();
  const copy = privacyCopy[locale].leave;
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<EmailProblem | null>(null);
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<LeaveLinkOutcome | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const errorId = useId();
  const scripted = useScripted();

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    const check = checkEmail(email);
    if (!check.ok) {
      setProblem(check.problem);
      inputRef.current?.focus();
      return;
    }
    setProblem(null);
    setOutcome(null);
    setSending(true);
    const answer = await requestLeaveLink(check.email, locale);
    setSending(false);
    if (answer === 'invalid') {
      setProblem('malformed');
      inputRef.current?.focus();
    } else setOutcome(answer);
  };

  return (
    <>
      <p>{fillIn(copy.form, { minutes: LEAVE_MAIL_INTERVAL_MINUTES })}</p>
      <form
        method="post"
        action={LEAVE_REQUEST_PATH}
        noValidate={scripted}
        onSubmit={handleSubmit}
        aria-busy={sending}
        className="pt-2"
      >
        <label htmlFor={inputId} className="block text-sm font-semibold text-stone-800">
          {copy.emailLabel}
        </label>
        <div className={FIELD_ROW}>
          <EmailInput
            ref={inputRef}
            id={inputId}
            placeholder={messages.signup.exampleEmail}
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              if (problem) setProblem(null);
            }}
            aria-invalid={problem !== null}
            aria-describedby={`${errorId} ${describedBy}`}
          />
          <FieldError id={errorId} message={emailProblemText(problem, messages.signup)} />
          <button type="submit" disabled={sending} className={primaryButton}>
            {sending && <Spinner className="border-white/60" />}
            {sending ? copy.sending : copy.submit}
          </button>
        </div>
        <input type="hidden" name="language" value={locale} />
      </form>
      {/* Both live regions are always in the page, so an answer that appears in one is announced. */}
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
