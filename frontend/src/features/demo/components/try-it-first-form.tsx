import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { secondaryButton, textInput } from '@/components/control-styles';
import { FIELD_ROW, FieldError } from '@/components/form-parts';
import { goToSignup } from '@/components/go-to-signup';
import { Spinner } from '@/components/spinner';
import { useTypedBeforeHydration } from '@/components/use-typed-before-hydration';
import { useLanguage } from '@/i18n/language-context';

/** How long the demo pretends to prepare before sending the visitor to the waitlist. */
export const TRY_FIRST_DELAY_MS = 2000;

/**
 * "Try it first": the visitor types their own shopping list; the real product is not open yet, so after a
 * short preparing state the page takes them to the waitlist.
 */
export function TryItFirstForm() {
  const { messages } = useLanguage();
  const copy = messages.demo.tryFirst;
  const [list, setList] = useState('');
  const [loading, setLoading] = useState(false);
  const [missing, setMissing] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(inputRef, setList);
  const inputId = useId();
  const errorId = useId();

  useEffect(() => {
    if (!loading) return;
    const timer = window.setTimeout(() => {
      setLoading(false);
      goToSignup();
    }, TRY_FIRST_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [loading]);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loading) return;
    if (!list.trim()) {
      setMissing(true);
      inputRef.current?.focus();
      return;
    }
    setMissing(false);
    setLoading(true);
  };

  return (
    // method="dialog": without the script, submitting does nothing (a form outside a dialog closes nothing),
    // rather than reloading the page at `/?`.
    <form
      method="dialog"
      noValidate
      onSubmit={handleSubmit}
      // The demo card's last part: its tint follows the card's curved bottom corners.
      className="rounded-b-3xl border-t border-stone-200 bg-brand-50 p-4 sm:p-5"
    >
      <label htmlFor={inputId} className="block font-semibold text-stone-900">
        {copy.label}
      </label>
      <div className={FIELD_ROW}>
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          required
          value={list}
          onChange={(event) => {
            setList(event.target.value);
            if (missing) setMissing(false);
          }}
          placeholder={copy.placeholder}
          aria-invalid={missing}
          aria-describedby={errorId}
          className={textInput}
        />
        <FieldError id={errorId} message={missing ? copy.required : ''} />
        <button type="submit" disabled={loading} className={secondaryButton}>
          {loading && <Spinner className="border-stone-400" />}
          {loading ? copy.loading : copy.submit}
        </button>
      </div>
      <p role="status" className="sr-only">
        {loading ? copy.loading : ''}
      </p>
    </form>
  );
}
