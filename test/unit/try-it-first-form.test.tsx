import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TryItFirstForm } from '../../frontend/src/features/demo/components/try-it-first-form';
import { messages } from '../../frontend/src/i18n/messages';
import { renderInLanguage } from './render-page';

const copy = messages.en.demo.tryFirst;

function renderWithSignupSection() {
  const signup = document.createElement('section');
  signup.id = 'signup';
  document.body.append(signup);
  const scrollToSignup = vi.spyOn(signup, 'scrollIntoView');
  renderInLanguage(<TryItFirstForm />, 'en');
  return scrollToSignup;
}

// fireEvent rather than user-event: it is synchronous, so the fake clock alone decides what time it is.
const type = (text: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: copy.label }), { target: { value: text } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: copy.submit }));

describe('try-it-first form', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    document.getElementById('signup')?.remove();
  });

  it.each(['', '   '])('asks for a product when the list is %j, and does not proceed', async (typed) => {
    const scrollToSignup = renderWithSignupSection();
    type(typed);
    submit();

    expect(screen.getByText(copy.required)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: copy.label })).toHaveAttribute('aria-invalid', 'true');
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(scrollToSignup).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: copy.submit })).toBeEnabled();
  });

  it('shows a loading state for 2 seconds, then scrolls to the signup section', async () => {
    const scrollToSignup = renderWithSignupSection();
    type('milk, coffee');
    submit();

    expect(screen.getByRole('button', { name: copy.loading })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent(copy.loading);

    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(scrollToSignup).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: copy.loading })).toBeDisabled();

    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(scrollToSignup).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: copy.submit })).toBeEnabled();
  });

  it('clears the request for a product once the visitor types', () => {
    renderWithSignupSection();
    submit();
    type('b');

    expect(screen.queryByText(copy.required)).not.toBeInTheDocument();
  });
});
