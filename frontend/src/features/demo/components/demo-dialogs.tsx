import type { DealItem } from '@/features/demo/demo-data';
import { BasketDialog } from './basket-dialog';
import { DealDialog } from './deal-dialog';

/** The demo's two dialogs, one chunk of code that the page loads only once a visitor reaches for them. */
export function DemoDialogs({
  deal,
  onCloseDeal,
  alternativeOpen,
  onCloseAlternative,
}: {
  deal: DealItem | null;
  onCloseDeal: () => void;
  alternativeOpen: boolean;
  onCloseAlternative: () => void;
}) {
  return (
    <>
      <DealDialog deal={deal} onClose={onCloseDeal} />
      <BasketDialog open={alternativeOpen} onClose={onCloseAlternative} />
    </>
  );
}
