import { type ComponentProps, type ReactNode, useEffect, useState } from 'react';
import type { EmailProblem } from '#contract/email-address';
import { textInput } from '@/components/control-styles';
import type { Messages } from '@/i18n/message-catalog';

/**
 * A field with its button, and the field's message right under the field at every width: in the DOM between
 * the two, so on a phone, where they stack, it sits between field and button; from 640 px, where the button
 * stands beside the field, it wraps to a line of its own under both (`UNDER_FIELD`).
 */
export const FIELD_ROW = 'mt-2 flex flex-col gap-x-3 gap-y-1.5 sm:flex-row sm:flex-wrap';
const UNDER_FIELD = 'sm:order-last sm:basis-full';

/**
 * The message under a form field. Always in the DOM, so screen readers announce it when text appears;
 * the field points at it with `aria-describedby`.
 */
export function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <p id={id} aria-live="polite" className={`min-h-5 text-sm font-medium text-red-700 ${UNDER_FIELD}`}>
      {message}
    </p>
  );
}

/** A hint under the field, after its message (a suggestion, not an error): announced as it appears. */
export function FieldHint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} aria-live="polite" className={`text-sm text-stone-700 ${UNDER_FIELD}`}>
      {children}
    </p>
  );
}

/** An address field, as every form of the page asks for one: what browsers and phone keyboards need. */
export function EmailInput(props: ComponentProps<'input'>) {
  return (
    <input
      name="email"
      type="email"
      required
      autoComplete="email"
      inputMode="email"
      spellCheck={false}
      className={textInput}
      {...props}
    />
  );
}

/** What the page says of an address it will not send, in the field's message; empty when nothing is wrong. */
export function emailProblemText(problem: EmailProblem | null, signup: Messages['signup']): string {
  if (problem === 'empty') return signup.errors.empty;
  return problem === 'malformed' ? signup.errors.malformed(signup.exampleEmail) : '';
}

/** False in the prerendered HTML and during hydration, so the browser validates until the script can. */
export function useScripted(): boolean {
  const [scripted, setScripted] = useState(false);
  useEffect(() => setScripted(true), []);
  return scripted;
}
