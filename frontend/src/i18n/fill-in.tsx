import { Fragment, type ReactNode } from 'react';

/**
 * Renders a message with `{name}` placeholders, each replaced by the element given for it (a link, a
 * formatted value). The copy stays one whole sentence per language, whatever its word order. A placeholder
 * without an element throws, so a mistyped one fails the tests and the prerender instead of reaching a page.
 */
export function fillIn(template: string, slots: Record<string, ReactNode>): ReactNode {
  // Splitting on a capturing group alternates text (even indexes) and placeholder names (odd indexes).
  const parts = template.split(/\{(\w+)\}/);
  return parts.map((part, index) => {
    if (index % 2 === 0) return part;
    if (!Object.hasOwn(slots, part)) throw new Error(`No value for {${part}} in "${template}"`);
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a fixed message never move.
    return <Fragment key={index}>{slots[part]}</Fragment>;
  });
}

/** The same for plain text (a page's description): each `{name}` replaced by its value, or a throw. */
export function fillInText(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!Object.hasOwn(values, name)) throw new Error(`No value for {${name}} in "${template}"`);
    return values[name] as string;
  });
}
