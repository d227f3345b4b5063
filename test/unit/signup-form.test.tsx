import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SignupSection } from '../../frontend/src/features/waitlist/components/signup-section';
import type { Locale } from '../../frontend/src/i18n/locales';
import { messages } from '../../frontend/src/i18n/messages';
import { renderInLanguage } from './render-page';

function renderSignup(locale: Locale) {
  const copy = messages[locale].signup;
  renderInLanguage(<SignupSection />, locale);
  const input = screen.getByRole('textbox', { name: copy.emailLabel });
  return { copy, input, submit: screen.getByRole('button', { name: copy.submit }), user: userEvent.setup() };
}

describe('signup form', () => {
  it('is the #signup section, with an e-mail field the browser can fill', () => {
    const { input } = renderSignup('en');

    expect(document.getElementById('signup')).toContainElement(input);
    expect(input).toHaveAttribute('type', 'email');
    expect(input).toBeRequired();
    expect(input).toHaveAttribute('autocomplete', 'email');
    expect(input.closest('form')).toHaveAttribute('novalidate');
    expect(screen.getByText(messages.en.signup.note)).toBeInTheDocument();
  });

  it.each(['nl', 'en'] as const)(
    'asks for an address when it is empty after trimming (%s)',
    async (locale) => {
      const { copy, input, submit, user } = renderSignup(locale);
      await user.type(input, '   ');
      await user.click(submit);

      expect(input).toHaveAccessibleDescription(expect.stringContaining(copy.errors.empty));
      expect(input).toHaveAttribute('aria-invalid', 'true');
      expect(input).toHaveFocus();
    },
  );

  it.each(['nl', 'en'] as const)('explains the shape of a valid address (%s)', async (locale) => {
    const { copy, input, submit, user } = renderSignup(locale);
    await user.type(input, 'name@example');
    await user.click(submit);

    const message = screen.getByText(copy.errors.malformed(copy.exampleEmail));
    expect(message).toHaveAttribute('aria-live', 'polite');
    expect(input).toHaveAccessibleDescription(expect.stringContaining(message.textContent ?? '-'));
  });

  it('shows the exact English messages of the specification', async () => {
    const { input, submit, user } = renderSignup('en');
    await user.click(submit);
    expect(screen.getByText('Please enter an email address')).toBeInTheDocument();

    await user.type(input, 'ann@');
    await user.click(submit);
    expect(
      screen.getByText('Please enter a valid email address (e.g., name@example.com)'),
    ).toBeInTheDocument();
  });

  it('takes a well-formed address without complaint', async () => {
    const { input, submit, user } = renderSignup('en');
    await user.click(submit);
    await user.type(input, '  ann@example.nl ');
    await user.click(submit);

    expect(input).toHaveAttribute('aria-invalid', 'false');
    expect(screen.queryByText(messages.en.signup.errors.empty)).not.toBeInTheDocument();
  });
});
