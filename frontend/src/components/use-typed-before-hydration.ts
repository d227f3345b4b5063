import { type RefObject, useEffect } from 'react';

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
