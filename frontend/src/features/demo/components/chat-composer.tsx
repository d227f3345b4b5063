import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { iconButton, textInput } from '@/components/control-styles';
import { useTypedBeforeHydration } from '@/components/form-parts';
import { Icon } from '@/components/icons';
import { useDeferredModule } from '@/features/demo/use-deferred-module';
import { useLanguage } from '@/i18n/language-context';
import type { PlusMenuAction } from './plus-menu-entries';

export function ChatComposer(props: {
  onSend: (text: string) => void;
  onMenuAction: (action: PlusMenuAction) => void;
}) {
  const copy = useLanguage().messages.demo.input;
  const [text, setText] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(inputRef, setText);
  const inputId = useId();
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const message = text.trim();
    if (!message) return;
    props.onSend(message);
    setText('');
  };
  return (
    // method="dialog": without the script, sending does nothing rather than reloading the page at `/?`.
    <form
      method="dialog"
      onSubmit={handleSubmit}
      className="flex items-center gap-2 border-t border-stone-200 p-3"
    >
      <PlusMenu onAction={props.onMenuAction} />
      <label htmlFor={inputId} className="sr-only">
        {copy.label}
      </label>
      <input
        ref={inputRef}
        id={inputId}
        type="text"
        autoComplete="off"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={copy.placeholder}
        className={textInput}
      />
      <button
        type="submit"
        aria-label={copy.send}
        className={`${iconButton} bg-brand-700 text-white hover:bg-brand-800`}
      >
        <Icon name="send" />
      </button>
    </form>
  );
}

const importEntries = () => import('./plus-menu-entries');

/** A disclosure; a choice and Escape put the focus back on "+", since the chosen entry goes with the menu. */
function PlusMenu({ onAction }: { onAction: (action: PlusMenuAction) => void }) {
  const { messages } = useLanguage();
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const [entries, loadEntries] = useDeferredModule(importEntries);
  useEffect(() => {
    if (!open) return;
    const container = containerRef.current;
    const closeOnOutsidePress = (event: PointerEvent) => {
      if (!container?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    // A focus move without a destination (the window losing focus, Safari not focusing a clicked button) is
    // ignored.
    const closeWhenFocusLeaves = (event: FocusEvent) => {
      const next = event.relatedTarget;
      if (next instanceof Node && !container?.contains(next)) setOpen(false);
    };
    const listening = new AbortController();
    const { signal } = listening;
    document.addEventListener('pointerdown', closeOnOutsidePress, { signal });
    document.addEventListener('keydown', closeOnEscape, { signal });
    container?.addEventListener('focusout', closeWhenFocusLeaves, { signal });
    return () => listening.abort();
  }, [open]);
  const choose = (action: () => void) => {
    setOpen(false);
    // Before the action, so a dialog it opens gives the focus back to "+".
    toggleRef.current?.focus();
    action();
  };
  return (
    <div ref={containerRef} className="relative">
      <button
        ref={toggleRef}
        type="button"
        aria-label={messages.demo.plusMenu.toggle}
        aria-expanded={open}
        aria-controls={menuId}
        onPointerEnter={loadEntries}
        onFocus={loadEntries}
        onClick={() => {
          loadEntries();
          setOpen((isOpen) => !isOpen);
        }}
        className={`${iconButton} bg-stone-100 text-stone-800 hover:bg-stone-200 aria-expanded:bg-brand-700 aria-expanded:text-white`}
      >
        <Icon
          name="plus"
          className={`h-5 w-5 transition-transform motion-reduce:transition-none ${open ? 'rotate-45' : ''}`}
        />
      </button>
      <div id={menuId} hidden={!open} className="absolute bottom-12 left-0 z-10">
        {open && entries && <entries.PlusMenuEntries choose={choose} onAction={onAction} />}
      </div>
    </div>
  );
}
