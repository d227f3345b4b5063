import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ChatDemo } from '../../frontend/src/features/demo/components/chat-demo';
import { dialogCopy } from '../../frontend/src/features/demo/copy/dialog-copy';
import { messages } from '../../frontend/src/i18n/messages';
import { renderInLanguage } from './render-page';

const en = messages.en.demo;
const nl = messages.nl.demo;

describe('chat demo', () => {
  it('opens on the product view, answering with Jumbo milk at €1.20 instead of €1.65', () => {
    renderInLanguage(<ChatDemo />, 'en');

    expect(screen.getByRole('tab', { name: en.views.product })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: en.views.basket })).toHaveAttribute('aria-selected', 'false');
    expect(screen.getByText(en.productQuestion)).toBeInTheDocument();
    expect(
      screen.getByText('At Jumbo! Semi-skimmed milk is on offer for €1.20 instead of €1.65. You save €0.45.'),
    ).toBeInTheDocument();
  });

  it('shows the basket answer in the basket view: summary, four deals, Albert Heijn and not found', async () => {
    const user = userEvent.setup();
    renderInLanguage(<ChatDemo />, 'en');
    await user.click(screen.getByRole('tab', { name: en.views.basket }));

    // The basket view shows once its code has come.
    const panel = await screen.findByRole('tabpanel', { name: en.views.basket });
    const summary = (await within(panel).findByText(en.summary.total)).closest('dl') as HTMLElement;
    expect(summary).toHaveTextContent('Total€12.50');
    expect(summary).toHaveTextContent('You save€4.20');
    expect(summary).toHaveTextContent('Best storeJumbo');

    expect(within(panel).getByRole('heading', { name: en.dealsTitle('Jumbo') })).toBeInTheDocument();
    const dealButtons = within(panel).getAllByRole('button', { name: /% off/ });
    expect(dealButtons.map((button) => button.textContent)).toEqual([
      expect.stringMatching(/^Semi-skimmed milk.*27% off/),
      expect.stringMatching(/^Wholemeal sourdough bread.*16% off/),
      expect.stringMatching(/^Penne.*18% off/),
      expect.stringMatching(/^Organic Elstar apples.*30% off/),
    ]);
    expect(dealButtons[0]?.closest('ul')).toHaveClass('max-h-64', 'overflow-y-auto');

    // SPEC's orange card; its saving is what the offers there take off, not a gain over the cheapest store.
    const alternative = within(panel).getByRole('button', { name: /^Also found at Albert Heijn/ });
    expect(alternative).toHaveTextContent(/4 products available.*€18\.75.*You save €2\.25/);
    expect(alternative).toHaveClass('bg-orange-50', 'ring-orange-300');
    expect(within(panel).getByRole('heading', { name: 'Not found' })).toBeInTheDocument();
    expect(within(panel).getByText(en.notFoundNote)).toBeInTheDocument();
    const notFound = within(panel).getByRole('list', { name: 'Not found' });
    expect(
      within(notFound)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Quinoa', 'Coconut oil', 'Matcha powder']);
  });

  it('names the example week the offers are from, above either view', async () => {
    const user = userEvent.setup();
    renderInLanguage(<ChatDemo />, 'nl');
    expect(screen.getByText('Voorbeeldweek · 25–31 aug.')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: nl.views.basket }));
    expect(await screen.findByText(nl.basketAnswer)).toBeInTheDocument();
    expect(screen.getByText('Voorbeeldweek · 25–31 aug.')).toBeInTheDocument();
  });

  it('says in English which example week it is and how much dearer Albert Heijn is', async () => {
    const user = userEvent.setup();
    renderInLanguage(<ChatDemo />, 'en');
    expect(screen.getByText('Example week · 25–31 Aug')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: en.views.basket }));
    expect(
      await screen.findByText(
        'For comparison: the same basket costs €6.25 more at Albert Heijn than at Jumbo.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Also found at Albert Heijn/ })).toHaveAccessibleDescription(
      'For comparison: the same basket costs €6.25 more at Albert Heijn than at Jumbo.',
    );
    expect(screen.getByText(en.cheapestLabel)).toBeInTheDocument();
  });

  it('moves between views with the arrow keys, like any tablist', async () => {
    const user = userEvent.setup();
    renderInLanguage(<ChatDemo />, 'nl');
    screen.getByRole('tab', { name: nl.views.product }).focus();
    await user.keyboard('{ArrowRight}');

    expect(screen.getByRole('tab', { name: nl.views.basket })).toHaveFocus();
    // Selected once the basket view's code has come.
    expect(await screen.findByText(nl.basketAnswer)).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: nl.views.basket })).toHaveAttribute('aria-selected', 'true');
  });

  it('opens the product dialog with the deal that was chosen, every field filled, and closes it', async () => {
    const user = userEvent.setup();
    renderInLanguage(<ChatDemo />, 'en');
    await user.click(screen.getByRole('tab', { name: en.views.basket }));
    await user.click(await screen.findByRole('button', { name: /^Wholemeal sourdough bread/ }));

    const dialog = await screen.findByRole('dialog', { name: 'Wholemeal sourdough bread' });
    const fields = Object.fromEntries(
      within(dialog)
        .getAllByRole('term')
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );
    expect(fields).toEqual({
      Store: 'Jumbo',
      Discount: '16% off',
      'Offer price': '€3.32',
      'Regular price': '€3.97',
      Size: '800 g',
      'Unit price': '€4.15 per kg',
      Quantity: '1',
      'You save': '€0.65',
      'Valid from': '25 Aug',
      'Valid until': '31 Aug',
    });

    await user.click(within(dialog).getByRole('button', { name: dialogCopy.en.close }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('opens the product dialog from the product answer as well', async () => {
    const user = userEvent.setup();
    renderInLanguage(<ChatDemo />, 'nl');
    await user.click(screen.getByRole('button', { name: /^Halfvolle melk/ }));

    expect(await screen.findByRole('dialog', { name: nl.products.milk })).toHaveTextContent(
      /Geldig vanaf25 aug\.Geldig tot en met31 aug\.(?! 2025)/,
    );
  });

  it('opens the Albert Heijn basket from its card, with four items, total and savings, and closes it', async () => {
    const user = userEvent.setup();
    renderInLanguage(<ChatDemo />, 'en');
    await user.click(screen.getByRole('tab', { name: en.views.basket }));
    await user.click(await screen.findByRole('button', { name: /^Also found at Albert Heijn/ }));

    const dialog = await screen.findByRole('dialog', { name: 'Your basket at Albert Heijn' });
    const items = within(within(dialog).getByRole('list')).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Semi-skimmed milk €1.59 Saving €0.20',
      'Wholemeal sourdough bread €3.99 Saving €0.50',
      'Penne €2.49 Saving €0.30',
      'Organic Elstar apples €10.68 Saving €1.25',
    ]);
    expect(within(dialog).getByRole('list')).toHaveClass('max-h-60', 'overflow-y-auto');
    expect(within(dialog).getByText('Total').nextElementSibling).toHaveTextContent('€18.75');
    expect(within(dialog).getByText('Savings').nextElementSibling).toHaveTextContent('€2.25');

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('answers a typed message with the canned in-development reply, after the message', async () => {
    const user = userEvent.setup();
    renderInLanguage(<ChatDemo />, 'en');
    await user.type(screen.getByRole('textbox', { name: en.input.label }), 'Is coffee cheap anywhere?');
    await user.click(screen.getByRole('button', { name: en.input.send }));

    const log = screen.getByRole('log', { name: en.conversationLabel });
    expect(log).toHaveTextContent(`You: Is coffee cheap anywhere?Mandje: ${en.cannedReply}`);
    expect(screen.getByRole('textbox', { name: en.input.label })).toHaveValue('');
  });

  it('sends nothing for an empty message', async () => {
    const user = userEvent.setup();
    renderInLanguage(<ChatDemo />, 'en');
    await user.type(screen.getByRole('textbox', { name: en.input.label }), '   {Enter}');

    expect(screen.getByRole('log', { name: en.conversationLabel })).toBeEmptyDOMElement();
  });
});
