import { type RefObject, useEffect } from 'react';

/**
 * Keeps what a visitor typed into a field before the script took over (a slow phone), or what the browser
 * put back when they returned with Back. React does not read a controlled field's value when it hydrates,
 * and its next render would write its own empty state over it; this adopts the typed value into that
 * state once, as the page becomes interactive.
 */
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
