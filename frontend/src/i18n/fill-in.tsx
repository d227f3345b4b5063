import { Fragment, type ReactNode } from 'react';

// Each `{name}` replaced by its element (a link, a value), so the copy stays whole sentences in any word
// order. A missing value throws, failing the tests and the prerender rather than reaching a page.
export function fillIn(template: string, slots: Record<string, ReactNode>): ReactNode {
  // A capturing split alternates text (even indexes) and names (odd).
  return template.split(/\{(\w+)\}/).map((part, index) => {
    if (index % 2 === 0) return part;
    if (!Object.hasOwn(slots, part)) throw new Error(`No value for {${part}} in "${template}"`);
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a fixed message never move.
    return <Fragment key={index}>{slots[part]}</Fragment>;
  });
}

/** The same for plain text. */
export function fillInText(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!Object.hasOwn(values, name)) throw new Error(`No value for {${name}} in "${template}"`);
    return values[name] as string;
  });
}
