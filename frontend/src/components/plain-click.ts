import type { MouseEvent } from 'react';

/** A click without a modifier key: one that opens no new tab or window, so the page may handle it itself. */
export const isPlainClick = (event: MouseEvent) =>
  event.button === 0 && !(event.metaKey || event.ctrlKey || event.shiftKey || event.altKey);
