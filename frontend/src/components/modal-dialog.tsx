import { type ReactNode, useEffect, useId, useRef } from 'react';
import { secondaryButton } from './control-styles';

export function ModalDialog(props: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  closeLabel: string;
  children: ReactNode;
}) {
  const { open, onClose, description } = props;
  const dialogRef = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !open) return;
    const opener = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, [open]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click has a keyboard twin, Escape, built into <dialog>.
    <dialog
      ref={dialogRef}
      aria-labelledby={`${id}title`}
      aria-describedby={description ? `${id}description` : undefined}
      onClose={onClose}
      // A click on the backdrop lands on the dialog element itself; inside the panel it lands on a child.
      onClick={(event) => event.target === event.currentTarget && onClose()}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-0 text-stone-900 shadow-2xl"
    >
      {open && (
        <div className="p-6">
          <h2 id={`${id}title`} className="text-xl font-bold text-pretty">
            {props.title}
          </h2>
          {description && (
            <p id={`${id}description`} className="mt-1 text-sm text-stone-600">
              {description}
            </p>
          )}
          <div className="mt-4">{props.children}</div>
          <div className="mt-6 flex justify-end">
            <button type="button" onClick={onClose} className={secondaryButton}>
              {props.closeLabel}
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}
