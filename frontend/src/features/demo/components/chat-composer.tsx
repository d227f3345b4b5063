import { type FormEvent, useId, useRef, useState } from 'react';
import { iconButton, textInput } from '@/components/control-styles';
import { Icon } from '@/components/icons';
import { useTypedBeforeHydration } from '@/components/use-typed-before-hydration';
import { useLanguage } from '@/i18n/language-context';
import { PlusMenu } from './plus-menu';
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
