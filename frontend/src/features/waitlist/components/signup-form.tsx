import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { checkEmail, type EmailProblem } from '#contract/email-address';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { primaryButton, secondaryButton, textLink } from '@/components/control-styles';
import {
  EmailInput,
  emailProblemText,
  FIELD_ROW,
  FieldError,
  FieldHint,
  useScripted,
} from '@/components/form-parts';
import { focusSignupOnArrival, SIGNUP_EMAIL_INPUT_ID } from '@/components/go-to-signup';
import { Icon } from '@/components/icons';
import { Spinner } from '@/components/spinner';
import { useTypedBeforeHydration } from '@/components/use-typed-before-hydration';
import { type JoinResult, requestToJoin } from '@/features/waitlist/request-to-join';
import { fillIn } from '@/i18n/fill-in';
import { useLanguage } from '@/i18n/language-context';
import { PAGE_PATH } from '@/i18n/page-paths';
import { WaitlistNotice } from './waitlist-notice';

/**
 * The waitlist form, in two steps of progressive enhancement:
 * - As prerendered, before or without the script, it is a plain HTML form that posts to the API
 *   (`application/x-www-form-urlencoded`, the language in a hidden field). The browser checks the field
 *   (type email, required) and the API answers with a redirect to a result page; no address is ever in a
 *   URL.
 * - Once the script runs, the page takes over: the browser's own validation bubbles are switched off
 *   (`noValidate`) because they speak the browser's language, not the page's; the page checks the address
 *   with the API's own rule, says what is wrong right under the field, where screen readers announce it,
 *   and sends a well-formed address with fetch. After a signup the form gives way to one state: SPEC's
 *   success notice as a small line, then, largest, the step that decides (confirming with the link in the
 *   mail), the address exactly as typed, so a typo shows, and a button that puts it back in the field to
 *   correct it.
 */
export function SignupForm() {
  const { locale, messages } = useLanguage();
  const copy = messages.signup;
  const [email, setEmail] = useState('');
  const [honeypot, setHoneypot] = useState('');
  const [problem, setProblem] = useState<EmailProblem | null>(null);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<JoinResult | null>(null);
  /** The address the latest signup was made with, as typed (trimmed): its confirmation mail went there. */
  const [mailedTo, setMailedTo] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const inboxHeading = useRef<HTMLHeadingElement>(null);
  /** Whether the focus follows the next change of state: into "check your inbox", or back to the field. */
  const moveFocus = useRef(false);
  const errorId = useId();
  const noteId = useId();
  const honeypotId = useId();
  const suggestionId = useId();
  // A likely slip in the domain (`@gmial.com`) is pointed out once per address: when the field is left, or
  // at the first press of the button; a second press sends the address as typed. The checker is fetched
  // when the field is first used; until it is there (or if it never comes), nothing is pointed out.
  const suggestAddress = useRef<((typed: string) => string | null) | null>(null);
  const loadChecker = () =>
    import('@/features/waitlist/suggest-address').then(
      (checker) => (suggestAddress.current = checker.suggestAddress),
      () => null,
    );
  const [suggestion, setSuggestion] = useState<string | null>(null);
  const offeredFor = useRef<string | null>(null);
  const offerSuggestion = (typed: string) => {
    const likely = suggestAddress.current?.(typed) ?? null;
    setSuggestion(likely);
    if (likely) offeredFor.current = typed;
    return likely !== null;
  };
  const scripted = useScripted();
  useEffect(focusSignupOnArrival, []);
  useTypedBeforeHydration(inputRef, setEmail);
  // The form and the state after it take each other's place: the focus goes with them, never lost.
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    (mailedTo ? inboxHeading : inputRef).current?.focus();
  }, [mailedTo]);

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
    if (offeredFor.current !== email && offerSuggestion(email)) return;
    setSuggestion(null);
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
      moveFocus.current = true;
      setMailedTo(check.email);
    }
  };

  const acceptSuggestion = () => {
    setEmail(suggestion ?? email);
    setSuggestion(null);
    inputRef.current?.focus();
  };

  const correctAddress = () => {
    setEmail(mailedTo ?? '');
    setResult(null);
    moveFocus.current = true;
    setMailedTo(null);
  };

  return (
    <div className="mx-auto mt-10 max-w-xl">
      {!mailedTo && (
        <form
          method="post"
          action={WAITLIST_PATH}
          noValidate={scripted}
          onSubmit={handleSubmit}
          aria-busy={sending}
          className="relative"
        >
          <label htmlFor={SIGNUP_EMAIL_INPUT_ID} className="block text-sm font-semibold text-stone-800">
            {copy.emailLabel}
          </label>
          <div className={FIELD_ROW}>
            <EmailInput
              ref={inputRef}
              id={SIGNUP_EMAIL_INPUT_ID}
              placeholder={copy.exampleEmail}
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                if (problem) setProblem(null);
                setSuggestion(null);
              }}
              onFocus={() => void loadChecker()}
              onBlur={() => {
                const typed = email;
                // Once the checker is there, and only if the field still holds what was checked.
                void loadChecker().then(() => {
                  if (inputRef.current?.value === typed) offerSuggestion(typed);
                });
              }}
              aria-invalid={problem !== null}
              aria-describedby={`${errorId} ${suggestionId} ${noteId}`}
            />
            <FieldError id={errorId} message={emailProblemText(problem, copy)} />
            <FieldHint id={suggestionId}>
              {suggestion &&
                fillIn(copy.didYouMean, {
                  address: (
                    <button type="button" onClick={acceptSuggestion} className={`${textLink} wrap-anywhere`}>
                      {suggestion}
                    </button>
                  ),
                })}
            </FieldHint>
            <button type="submit" disabled={sending} className={primaryButton}>
              {sending && <Spinner className="border-white/60" />}
              {sending ? copy.sending : copy.submit}
            </button>
          </div>
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
      )}
      {/* Both live regions are always in the page (empty, they take no room), so what appears is announced. */}
      <div role="status">
        {mailedTo ? (
          <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-brand-200">
            <p className="text-sm font-semibold text-brand-800">
              {copy.notices.successTitle} {copy.notices.successBody}
            </p>
            <h3
              ref={inboxHeading}
              tabIndex={-1}
              className="mt-2 flex items-center gap-2 text-heading text-stone-950 focus:outline-none"
            >
              <Icon name="mail" className="h-5 w-5 shrink-0 text-brand-700" />
              {messages.meta.waitlistResultTitles['waitlist-joined']}
            </h3>
            <p className="mt-3">
              {fillIn(copy.checkInbox, {
                address: (
                  <strong className="wrap-anywhere">
                    <bdi>{mailedTo}</bdi>
                  </strong>
                ),
              })}
            </p>
            <p className="mt-2 text-sm text-stone-600">{copy.spamFolder}</p>
            <button type="button" onClick={correctAddress} className={`${secondaryButton} mt-4`}>
              {copy.changeAddress}
            </button>
          </div>
        ) : (
          <WaitlistNotice result={result} onDismiss={() => setResult(null)} kind="status" />
        )}
      </div>
      <div role="alert">
        <WaitlistNotice result={result} onDismiss={() => setResult(null)} kind="alert" />
      </div>
      {!mailedTo && (
        <div className="mt-2 space-y-1 text-sm text-stone-600">
          <p id={noteId} className="flex items-start gap-2">
            <Icon name="bell" className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" />
            {copy.note}
          </p>
          {/* With the note above, the text a visitor agrees to by signing up: SIGNUP_NOTE_VERSION names it. */}
          <p className="pl-6">
            {fillIn(copy.privacySentence, {
              link: (
                <a href={PAGE_PATH.privacy[locale]} className={textLink}>
                  {copy.privacyLink}
                </a>
              ),
            })}
          </p>
        </div>
      )}
    </div>
  );
}
