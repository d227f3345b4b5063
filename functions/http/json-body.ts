// RFC 8259 leaves a repeated member name's meaning open and JSON.parse keeps the last, so
// `{"email":"a@x","email":"b@y"}` may not mean what the sender meant: refused, at any depth.

/** `text` must be valid JSON. Names compare as decoded: `"a"` and `"\u0061"` are one name. */
export function hasRepeatedName(text: string): boolean {
  const open: (Set<string> | null)[] = [];
  let expectingName = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const names = open[open.length - 1];
      if (expectingName && names) {
        const name = JSON.parse(text.slice(index, end + 1)) as string;
        if (names.has(name)) return true;
        names.add(name);
        expectingName = false;
      }
      index = end;
    } else if (character === '{') {
      open.push(new Set());
      expectingName = true;
    } else if (character === '[') {
      open.push(null);
      expectingName = false;
    } else if (character === '}' || character === ']') {
      open.pop();
      expectingName = false;
    } else if (character === ',') {
      expectingName = open[open.length - 1] instanceof Set;
    }
  }
  return false;
}

export function parseJsonStrictly(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return hasRepeatedName(text) ? undefined : value;
}
