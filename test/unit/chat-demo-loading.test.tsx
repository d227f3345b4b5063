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

describe('chat demo while the basket view’s code is on its way', () => {
  it('keeps the product view until the basket view can be shown, then shows it whole', async () => {
    const user = userEvent.setup();
    renderInLanguage(<ChatDemo />, 'en');
    await user.click(screen.getByRole('tab', { name: en.views.basket }));
    await waitFor(() => expect(arrival.asked).toBe(true));

    // Never an empty panel: the product answer stays until the basket answer is there.
    expect(screen.getByRole('tab', { name: en.views.product })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: en.views.product })).toHaveTextContent(en.productQuestion);

    await act(async () => arrival.release());
    expect(await screen.findByText(en.basketAnswer)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: en.views.basket })).toHaveAttribute('aria-selected', 'true');
  });
});
