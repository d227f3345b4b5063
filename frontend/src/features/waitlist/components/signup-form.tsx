import { type FormEvent, useId, useRef, useState } from 'react';
import { primaryButton, textInput } from '../../../components/control-styles';
import { FieldError } from '../../../components/field-error';
import { useLanguage } from '../../../i18n/language-context';
import { checkEmail, type EmailProblem } from '../email-rule';
import { SIGNUP_EMAIL_INPUT_ID } from '../go-to-signup';

/**
 * The waitlist form. The browser's own validation bubbles are switched off (`noValidate`) because they
 * speak the browser's language, not the page's; the page checks the address itself and says what is wrong
 * next to the field, where screen readers announce it.
 */
export function SignupForm({ noteId }: { noteId: string }) {
  const { messages } = useLanguage();
  const copy = messages.signup;
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<EmailProblem | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const errorId = useId();

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const check = checkEmail(email);
    if (!check.ok) {
      setProblem(check.problem);
      inputRef.current?.focus();
      return;
    }
    setProblem(null);
    // Joining the waitlist (the API call and its notices) starts here, with `check.email`.
  };

  const errorText =
    problem === 'empty'
      ? copy.errors.empty
      : problem === 'malformed'
        ? copy.errors.malformed(copy.exampleEmail)
        : '';

  return (
    <form noValidate onSubmit={handleSubmit} className="mx-auto mt-10 max-w-xl">
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
        <button type="submit" className={primaryButton}>
          {copy.submit}
        </button>
      </div>
      <FieldError id={errorId} message={errorText} />
    </form>
  );
}
