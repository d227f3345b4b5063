/** What stands for the hidden part of an address: always three, so it says nothing about the length. */
export const MASK = '•••';

/** The separators IDNA reads as dots between labels, as typed: `.`, `。`, `．` and `｡`. */
const LABEL_SEPARATOR = /([.\u3002\uFF0E\uFF61])/;

/** The first character as a person sees it: `é` typed with a combining accent, or a flag, is one. */
function firstCharacter(text: string): string {
  if (typeof Intl.Segmenter === 'function') {
    for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text))
      return segment;
    return '';
  }
  return Array.from(text)[0] ?? '';
}

/**
 * An address with most of it hidden, to show on screen that a mail went to the address the visitor meant
 * without showing the address itself to whoever looks over their shoulder: the first character of the
 * local part and of the domain stay, the rest of the local part and of the domain's first label become
 * •••, and the domain's other labels stay as typed (`ann@mail.example.nl` is `a•••@m•••.example.nl`).
 */
export function maskEmailAddress(address: string): string {
  const at = address.lastIndexOf('@');
  const localPart = address.slice(0, at);
  const [firstLabel = '', ...rest] = address.slice(at + 1).split(LABEL_SEPARATOR);
  return `${firstCharacter(localPart)}${MASK}@${firstCharacter(firstLabel)}${MASK}${rest.join('')}`;
}
