import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { secondaryButton } from '../../../components/button-styles';
import { useLanguage } from '../../../i18n/language-context';
import { goToSignup } from '../../waitlist/go-to-signup';

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
    <form noValidate onSubmit={handleSubmit} className="border-t border-stone-200 bg-brand-50 p-4 sm:p-5">
      <label htmlFor={inputId} className="block font-semibold text-stone-900">
        {copy.label}
      </label>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row">
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
          className="min-h-11 min-w-0 flex-1 rounded-full border border-stone-300 bg-white px-4 text-base placeholder:text-stone-500 focus:border-brand-700 focus:outline-3 focus:outline-brand-700/30 aria-invalid:border-red-700"
        />
        <button type="submit" disabled={loading} className={secondaryButton}>
          {loading && (
            <span
              aria-hidden="true"
              className="h-4 w-4 rounded-full border-2 border-stone-400 border-t-transparent motion-safe:animate-spin"
            />
          )}
          {loading ? copy.loading : copy.submit}
        </button>
      </div>
      <p id={errorId} aria-live="polite" className="mt-1 min-h-5 text-sm font-medium text-red-700">
        {missing ? copy.required : ''}
      </p>
      <p role="status" className="sr-only">
        {loading ? copy.loading : ''}
      </p>
    </form>
  );
}
