import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { textInput } from '@/components/control-styles';
import { FIELD_ROW, FieldError, SubmitButton, useTypedBeforeHydration } from '@/components/form-parts';
import { goToSignup } from '@/components/go-to-signup';
import { useLanguage } from '@/i18n/language-context';

/** The product is not open yet: after SPEC's two seconds of "preparing", the visitor goes to the waitlist. */
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
    }, 2000);
    return () => window.clearTimeout(timer);
  }, [loading]);
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loading) return;
    setMissing(!list.trim());
    if (list.trim()) setLoading(true);
    else inputRef.current?.focus();
  };
  return (
    // method="dialog": without the script, submitting does nothing rather than reloading the page at `/?`.
    <form
      method="dialog"
      noValidate
      onSubmit={handleSubmit}
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
        <SubmitButton busy={loading} label={copy.submit} busyLabel={copy.loading} secondary />
      </div>
      <p role="status" className="sr-only">
        {loading ? copy.loading : ''}
      </p>
    </form>
  );
}
