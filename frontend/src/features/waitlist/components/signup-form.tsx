import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { checkEmail, type EmailProblem } from '#contract/email-address';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { primaryButton, textInput } from '../../../components/control-styles';
import { FieldError } from '../../../components/field-error';
import { focusSignupOnArrival, SIGNUP_EMAIL_INPUT_ID } from '../../../components/go-to-signup';
import { Icon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { useTypedBeforeHydration } from '../../../components/use-typed-before-hydration';
import { fillIn } from '../../../i18n/fill-in';
import { useLanguage } from '../../../i18n/language-context';
import { maskEmailAddress } from '../mask-email-address';
import { type JoinResult, requestToJoin } from '../request-to-join';
import { WaitlistNotice } from './waitlist-notice';

/**
 * The waitlist form, in two steps of progressive enhancement:
 * - As prerendered, before or without the script, it is a plain HTML form that posts to the API
 *   (`application/x-www-form-urlencoded`, the language in a hidden field). The browser checks the field
 *   (type email, required) and the API answers with a redirect to a result page; no address is ever in a
 *   URL.
 * - Once the script runs, the page takes over: the browser's own validation bubbles are switched off
 *   (`noValidate`) because they speak the browser's language, not the page's; the page checks the address
 *   with the API's own rule, says what is wrong next to the field, where screen readers announce it, and
 *   sends a well-formed address with fetch, answering with a notice. After a signup, a line under the form
 *   says where the confirmation mail went, masked, until the page is left or the form is sent again.
 */
export function SignupForm({ noteId }: { noteId: string }) {
  const { locale, messages } = useLanguage();
  const copy = messages.signup;
  const [email, setEmail] = useState('');
  const [honeypot, setHoneypot] = useState('');
  const [problem, setProblem] = useState<EmailProblem | null>(null);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<JoinResult | null>(null);
  /** The address the latest signup was made with, so its confirmation mail was sent there. */
  const [mailedTo, setMailedTo] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const honeypotId = useId();
  // False in the prerendered HTML and during hydration, so the browser validates until the script can.
  const [scripted, setScripted] = useState(false);
  useEffect(() => {
    setScripted(true);
    focusSignupOnArrival();
  }, []);
  useTypedBeforeHydration(inputRef, setEmail);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    setMailedTo(null);
    const check = checkEmail(email);
    if (!check.ok) {
      setProblem(check.problem);
      inputRef.current?.focus();
      return;
    }
    setProblem(null);
    setResult(null);
    setSending(true);
    const outcome = await requestToJoin({
      email: check.email,
      language: locale,
      website: honeypot || undefined,
    });
    setSending(false);
    setResult(outcome);
    // Only a stored address is cleared; after any problem the visitor keeps what they typed.
    if (outcome === 'joined') {
      setEmail('');
      setMailedTo(check.email);
    }
  };

  const errorText =
    problem === 'empty'
      ? copy.errors.empty
      : problem === 'malformed'
        ? copy.errors.malformed(copy.exampleEmail)
        : '';

  return (
    <>
      <form
        method="post"
        action={WAITLIST_PATH}
        noValidate={scripted}
        onSubmit={handleSubmit}
        aria-busy={sending}
        className="relative mx-auto mt-10 max-w-xl"
      >
        <label htmlFor={SIGNUP_EMAIL_INPUT_ID} className="block text-sm font-semibold text-stone-800">
          {copy.emailLabel}
        </label>
        <div className="mt-2 flex flex-col gap-3 sm:flex-row">
          <input
            ref={inputRef}
            id={SIGNUP_EMAIL_INPUT_ID}
            name="email"
            type="email"
            required
            autoComplete="email"
            inputMode="email"
            spellCheck={false}
            placeholder={copy.exampleEmail}
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              if (problem) setProblem(null);
            }}
            aria-invalid={problem !== null}
            aria-describedby={`${errorId} ${noteId}`}
            className={textInput}
          />
          <button type="submit" disabled={sending} className={primaryButton}>
            {sending && <Spinner className="border-white/60" />}
            {sending ? copy.sending : copy.submit}
          </button>
        </div>
        <FieldError id={errorId} message={errorText} />
        <input type="hidden" name="language" value={locale} />
        {/* Robots fill in every field; people never see this one, nor do screen readers or the Tab key. */}
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label htmlFor={honeypotId}>{copy.honeypotLabel}</label>
          <input
            id={honeypotId}
            name="website"
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={honeypot}
            onChange={(event) => setHoneypot(event.target.value)}
          />
        </div>
      </form>
      {/* Always in the page, so the line is announced when it appears. */}
      <p aria-live="polite" className="mx-auto max-w-xl">
        {mailedTo && (
          <span className="flex items-start gap-2 text-sm font-semibold text-brand-900">
            <Icon name="mail" className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" />
            <span>{fillIn(copy.mailSent, { address: <bdi>{maskEmailAddress(mailedTo)}</bdi> })}</span>
          </span>
        )}
      </p>
      <WaitlistNotice result={result} onDismiss={() => setResult(null)} />
    </>
  );
}
