import { useEffect, useId, useRef, useState } from 'react';
import { referrerHost, type SignupSource, utmSourceOf } from '#contract/signup-source';
import { type JoinWaitlistRequest, WAITLIST_PATH } from '#contract/waitlist-api';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { secondaryButton, textLink } from '@/components/control-styles';
import { EmailForm, useEmailField, useTypedBeforeHydration } from '@/components/form-parts';
import { focusSignupOnArrival, SIGNUP_EMAIL_INPUT_ID, SIGNUP_SECTION_ID } from '@/components/go-to-signup';
import { Icon } from '@/components/icons';
import { PageSection } from '@/components/page-section';
import { postJson } from '@/components/post-json';
import { fillIn } from '@/i18n/fill-in';
import { useLanguage } from '@/i18n/language-context';
import { PAGE_PATH } from '@/i18n/page-paths';

type JoinResult = 'joined' | 'already_registered' | 'failed';

/** Sends the address with where the visit came from: the landing URL's UTM values, the referring site's name. */
async function requestToJoin(request: JoinWaitlistRequest): Promise<JoinResult> {
  const referrer = referrerHost(document.referrer);
  const elsewhere = referrer !== undefined && referrer !== referrerHost(location.href);
  const source: SignupSource = { ...utmSourceOf(location.search), ...(elsewhere && { referrer }) };
  const response = await postJson(WAITLIST_PATH, { ...request, ...source });
  return response?.status === 201 ? 'joined' : response?.status === 409 ? 'already_registered' : 'failed';
}

/** Without the script the API redirects to a result page; after a signup the address as typed shows. */
export function SignupSection() {
  const { locale, messages } = useLanguage();
  const copy = messages.signup;
  const field = useEmailField();
  const { email, setEmail, inputRef } = field;
  const [honeypot, setHoneypot] = useState('');
  const [result, setResult] = useState<JoinResult | 'sending' | null>(null);
  const [mailedTo, setMailedTo] = useState<string | null>(null);
  const inboxHeading = useRef<HTMLHeadingElement>(null);
  const moveFocus = useRef(false);
  const noteId = useId();
  const honeypotId = useId();
  const suggestionId = useId();
  // A likely slip in the domain is pointed out once per address (when the field is left, or at the first
  // press); a second press sends it as typed. The checker is fetched when the field is first used.
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
  useEffect(focusSignupOnArrival, []);
  useTypedBeforeHydration(inputRef, setEmail);
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    (mailedTo ? inboxHeading : inputRef).current?.focus();
  }, [mailedTo, inputRef]);

  const send = async (address: string) => {
    if (offeredFor.current !== email && offerSuggestion(email)) return;
    setSuggestion(null);
    setResult('sending');
    const outcome = await requestToJoin({ email: address, language: locale, website: honeypot || undefined });
    setResult(outcome);
    // Only a stored address is cleared; after any problem the visitor keeps what they typed.
    if (outcome === 'joined') {
      setEmail('');
      moveFocus.current = true;
      setMailedTo(address);
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
    <PageSection id={SIGNUP_SECTION_ID} title={copy.title} intro={copy.body} className="bg-brand-50">
      <div className="mx-auto mt-10 max-w-xl">
        {!mailedTo && (
          <EmailForm
            field={field}
            action={WAITLIST_PATH}
            className="relative"
            copy={copy}
            id={SIGNUP_EMAIL_INPUT_ID}
            describedBy={`${suggestionId} ${noteId}`}
            busy={result === 'sending'}
            onValid={send}
            inputProps={{
              onChange: () => setSuggestion(null),
              onFocus: () => void loadChecker(),
              onBlur: () => {
                const typed = email;
                void loadChecker().then(() => {
                  if (inputRef.current?.value === typed) offerSuggestion(typed);
                });
              },
            }}
            hint={{
              id: suggestionId,
              content:
                suggestion &&
                fillIn(copy.didYouMean, {
                  address: (
                    <button type="button" onClick={acceptSuggestion} className={`${textLink} wrap-anywhere`}>
                      {suggestion}
                    </button>
                  ),
                }),
            }}
          >
            {/* A honeypot: robots fill in every field; people, screen readers and the Tab key never meet it. */}
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
          </EmailForm>
        )}
        {/* Both live regions are always present, so what appears in one is announced. */}
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
            result === 'already_registered' && <Notice onDismiss={() => setResult(null)} />
          )}
        </div>
        <div role="alert">{result === 'failed' && <Notice fault onDismiss={() => setResult(null)} />}</div>
        {!mailedTo && (
          <div className="mt-2 space-y-1 text-sm text-stone-600">
            <p id={noteId} className="flex items-start gap-2">
              <Icon name="bell" className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" />
              {copy.note}
            </p>
            {/* With the note above, the text SIGNUP_NOTE_VERSION names. */}
            <p className="pl-6">
              {fillIn(copy.privacySentence, {
                days: PENDING_DAYS,
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
    </PageSection>
  );
}

// A signup that did not join, in the flow under the form: "already registered" is neutral news for the polite
// live region, a fault an alert. It stays until dismissed, so nobody reads against a clock.
function Notice({ fault = false, onDismiss }: { fault?: boolean; onDismiss: () => void }) {
  const { notices, notConfirmedYet, dismissNotice } = useLanguage().messages.signup;
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
        <p className="font-bold">{fault ? notices.errorTitle : notices.duplicateTitle}</p>
        <p className="mt-0.5 text-sm">{fault ? notices.errorBody : notices.duplicateBody}</p>
        {!fault && <p className="mt-2 text-sm text-stone-700">{notConfirmedYet}</p>}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label={dismissNotice}
        className="-m-1 inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-full hover:bg-black/10 focus-visible:outline-3 focus-visible:outline-current"
      >
        <Icon name="close" className="h-4 w-4" />
      </button>
    </div>
  );
}
