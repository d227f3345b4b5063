import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChatDemo } from '../../frontend/src/features/demo/components/chat-demo';
import { messages } from '../../frontend/src/i18n/messages';
import { renderInLanguage } from './render-page';

const en = messages.en.demo;

// The basket view's code, held back until the test lets it come, as on a slow connection.
const arrival = vi.hoisted(() => {
  let release = () => {};
  const arrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { arrived, release: () => release(), asked: false };
});

vi.mock('../../frontend/src/features/demo/components/basket-answer', async (importOriginal) => {
  arrival.asked = true;
  await arrival.arrived;
  return importOriginal();
});

// The rest of the demo is a visitor's journey in a real browser: test/e2e/demo.spec.ts and keyboard.spec.ts.
describe('chat demo', () => {
  it('moves between views with the arrow keys, and keeps the product view until the basket view can be shown whole', async () => {
    const user = userEvent.setup();
    renderInLanguage(<ChatDemo />, 'en');
    screen.getByRole('tab', { name: en.views.product }).focus();
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(arrival.asked).toBe(true));

    expect(screen.getByRole('tab', { name: en.views.basket })).toHaveFocus();
    // Never an empty panel: the product answer stays until the basket answer is there.
    expect(screen.getByRole('tab', { name: en.views.product })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: en.views.product })).toHaveTextContent(en.productQuestion);

    await act(async () => arrival.release());
    expect(await screen.findByText(en.basketAnswer)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: en.views.basket })).toHaveAttribute('aria-selected', 'true');

    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: en.views.product })).toHaveFocus();
    expect(screen.getByRole('tab', { name: en.views.product })).toHaveAttribute('aria-selected', 'true');
  });
});
