import { act, fireEvent, screen } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import { TryItFirstForm } from '../../frontend/src/features/demo/components/try-it-first-form';
import { messages } from '../../frontend/src/i18n/messages';
import { renderInLanguage } from './render-page';

const copy = messages.en.demo.tryFirst;

// SPEC's two seconds, to the millisecond, on a fake clock; what the visitor sees is test/e2e/demo.spec.ts.
it('shows its loading state for 2 seconds, then scrolls to the signup section', async () => {
  vi.useFakeTimers();
  const signup = document.createElement('section');
  signup.id = 'signup';
  document.body.append(signup);
  const scrollToSignup = vi.spyOn(signup, 'scrollIntoView');
  renderInLanguage(<TryItFirstForm />, 'en');
  // fireEvent rather than user-event: it is synchronous, so the fake clock alone decides what time it is.
  fireEvent.change(screen.getByRole('textbox', { name: copy.label }), { target: { value: 'milk' } });
  fireEvent.click(screen.getByRole('button', { name: copy.submit }));

  await act(() => vi.advanceTimersByTimeAsync(1999));
  expect(scrollToSignup).not.toHaveBeenCalled();
  expect(screen.getByRole('button', { name: copy.loading })).toBeDisabled();

  await act(() => vi.advanceTimersByTimeAsync(1));
  expect(scrollToSignup).toHaveBeenCalledTimes(1);
  expect(screen.getByRole('button', { name: copy.submit })).toBeEnabled();
  vi.useRealTimers();
  signup.remove();
});
