import type { ComponentProps, ReactNode, RefObject } from 'react';
import { useEffect, useId, useRef, useState } from 'react';
import { checkEmail, type EmailProblem } from '#contract/email-address';
import { primaryButton, secondaryButton, textInput } from '@/components/control-styles';
import { useLanguage } from '@/i18n/language-context';

// A field and its button; the message between them in the DOM, wrapped under both where they sit side by side.
export const FIELD_ROW = 'mt-2 flex flex-col gap-x-3 gap-y-1.5 sm:flex-row sm:flex-wrap';
const UNDER_FIELD = 'sm:order-last sm:basis-full';

/** Always in the DOM, so screen readers announce it when text appears. */
export function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} aria-live="polite" className={`min-h-5 text-sm font-medium text-red-700 ${UNDER_FIELD}`}>
      {message}
    </p>
  );
}

/** A form's one button, with a spinner (still for reduced motion) while `busy`. */
export function SubmitButton(props: {
  busy: boolean;
  label: string;
  busyLabel: string;
  secondary?: boolean;
}) {
  return (
    <button type="submit" disabled={props.busy} className={props.secondary ? secondaryButton : primaryButton}>
      {props.busy && (
        <span
          aria-hidden="true"
          className={`h-4 w-4 rounded-full border-2 border-t-transparent motion-safe:animate-spin ${props.secondary ? 'border-stone-400' : 'border-white/60'}`}
        />
      )}
      {props.busy ? props.busyLabel : props.label}
    </button>
  );
}

// Keeps what was typed before hydration (or restored by Back): React does not read a controlled field's value
// when it hydrates, and would write its empty state over it.
export function useTypedBeforeHydration(
  field: RefObject<HTMLInputElement | null>,
  adopt: (typed: string) => void,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on the first render only.
  useEffect(() => {
    const typed = field.current?.value;
    if (typed) adopt(typed);
  }, []);
}

export function useEmailField() {
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<EmailProblem | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  return { email, setEmail, problem, setProblem, inputRef };
}

// Posts a plain form without the script; with it, the address is checked by the API's own rule (`noValidate`:
// the browser's bubbles speak the browser's language) and `onValid` sends it.
export function EmailForm(props: {
  field: ReturnType<typeof useEmailField>;
  action: string;
  className: string;
  copy: { emailLabel: string; submit: string; sending: string };
  id: string;
  describedBy: string;
  busy: boolean;
  onValid: (address: string) => void;
  inputProps?: ComponentProps<'input'>;
  hint?: { id: string; content: ReactNode };
  children?: ReactNode;
}) {
  const { locale, messages } = useLanguage();
  const { email, setEmail, problem, setProblem, inputRef } = props.field;
  const { errors, exampleEmail } = messages.signup;
  // False in the prerendered HTML and during hydration, so the browser validates until the script can.
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  const errorId = useId();
  const { id } = props;
  return (
    <form
      method="post"
      action={props.action}
      noValidate={scripted}
      onSubmit={(event) => {
        event.preventDefault();
        if (props.busy) return;
        const check = checkEmail(email);
        setProblem(check.ok ? null : check.problem);
        if (check.ok) props.onValid(check.email);
        else inputRef.current?.focus();
      }}
      aria-busy={props.busy}
      className={props.className}
    >
      <label htmlFor={id} className="block text-sm font-semibold text-stone-800">
        {props.copy.emailLabel}
      </label>
      <div className={FIELD_ROW}>
        <input
          name="email"
          type="email"
          required
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          className={textInput}
          ref={inputRef}
          id={id}
          placeholder={exampleEmail}
          value={email}
          {...props.inputProps}
          onChange={(event) => {
            setEmail(event.target.value);
            if (problem) setProblem(null);
            props.inputProps?.onChange?.(event);
          }}
          aria-invalid={problem !== null}
          aria-describedby={`${errorId} ${props.describedBy}`}
        />
        <FieldError
          id={errorId}
          message={problem === 'empty' ? errors.empty : problem ? errors.malformed(exampleEmail) : ''}
        />
        {props.hint && (
          <p id={props.hint.id} aria-live="polite" className={`text-sm text-stone-700 ${UNDER_FIELD}`}>
            {props.hint.content}
          </p>
        )}
        <SubmitButton busy={props.busy} label={props.copy.submit} busyLabel={props.copy.sending} />
      </div>
      <input type="hidden" name="language" value={locale} />
      {props.children}
    </form>
  );
}
