import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ChatDemo } from '../../frontend/src/features/demo/components/chat-demo';
import { messages } from '../../frontend/src/i18n/messages';
import { renderInLanguage } from './render-page';

const copy = messages.en.demo.plusMenu;

async function openMenu() {
  const user = userEvent.setup();
  renderInLanguage(<ChatDemo />, 'en');
  const toggle = screen.getByRole('button', { name: copy.toggle });
  await user.click(toggle);
  // The entries' code loads when the menu is first wanted.
  await screen.findByRole('button', { name: copy.scanReceipt });
  return { user, toggle };
}

describe('plus menu', () => {
  it('opens from the plus button with its six entries', async () => {
    const { toggle } = await openMenu();

    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    for (const name of [copy.scanReceipt, copy.character, copy.location, copy.product, copy.supermarket]) {
      expect(screen.getByRole('button', { name: new RegExp(`^${name}`) })).toBeVisible();
    }
    expect(screen.getByRole('button', { name: /Nederlands/ })).toBeVisible();
  });

  it('disables character and location, marked coming soon', async () => {
    await openMenu();

    for (const name of [copy.character, copy.location]) {
      const entry = screen.getByRole('button', { name: `${name} ${messages.en.common.comingSoon}` });
      expect(entry).toBeDisabled();
    }
    expect(screen.getByRole('button', { name: copy.scanReceipt })).toBeEnabled();
  });

  it('closes on a click outside it', async () => {
    const { user, toggle } = await openMenu();
    await user.click(screen.getByText(messages.en.demo.productQuestion));

    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: copy.scanReceipt })).not.toBeInTheDocument();
  });

  it('closes on Escape and gives focus back to the plus button', async () => {
    const { user, toggle } = await openMenu();
    await user.keyboard('{Escape}');

    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('closes when the focus tabs out of it, past its last entry', async () => {
    const { user, toggle } = await openMenu();
    const lastEntry = screen.getByRole('button', { name: /Nederlands/ });
    while (document.activeElement !== lastEntry) await user.tab();
    expect(toggle).toHaveAttribute('aria-expanded', 'true');

    await user.tab();

    expect(screen.getByRole('textbox', { name: messages.en.demo.input.label })).toHaveFocus();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes when the focus tabs back out of it, before the plus button', async () => {
    const { user, toggle } = await openMenu();
    await user.tab({ shift: true });

    expect(toggle).not.toHaveFocus();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it.each([
    ['scan receipt', copy.scanReceipt],
    ['product', copy.product],
    ['the other language', 'Nederlands'],
  ])('gives focus back to the plus button after %s is chosen', async (_entry, name) => {
    const { user, toggle } = await openMenu();
    await user.click(screen.getByRole('button', { name: new RegExp(`^${name}`) }));

    // The same button, renamed when the language changed.
    expect(toggle).toHaveFocus();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes when the plus button is pressed again', async () => {
    const { user, toggle } = await openMenu();
    await user.click(toggle);

    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('answers scan receipt with the in-development reply and closes', async () => {
    const { user, toggle } = await openMenu();
    await user.click(screen.getByRole('button', { name: copy.scanReceipt }));

    expect(screen.getByRole('log')).toHaveTextContent(
      `You: ${copy.scanReceipt}Mandje: ${messages.en.demo.cannedReply}`,
    );
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('goes back to the product view from the product entry', async () => {
    const { user } = await openMenu();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('tab', { name: messages.en.demo.views.basket }));
    await user.click(screen.getByRole('button', { name: copy.toggle }));
    await user.click(screen.getByRole('button', { name: copy.product }));

    expect(screen.getByRole('tab', { name: messages.en.demo.views.product })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });
});
