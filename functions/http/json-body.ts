/**
 * JSON as the API reads it: RFC 8259 leaves a repeated member name's meaning open and JSON.parse keeps the
 * last value, so `{"email":"a@x","email":"b@y"}` would be read as something the sender may not have
 * meant. A repeated name, at any depth, is refused instead, as a repeated form field is.
 */

/** Where the string literal starting at `start` (its opening quote) ends: the index of its closing quote. */
function endOfString(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
  return index;
}

/**
 * Whether some object in `text`, which must already be valid JSON, names a member twice. Names compare as
 * decoded, so `"a"` and `"\u0061"` are the same name. One pass; bodies are at most MAX_REQUEST_BYTES.
 */
export function hasRepeatedName(text: string): boolean {
  // One entry per open object (its names so far) or array (null).
  const open: (Set<string> | null)[] = [];
  let expectingName = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character === '"') {
      const end = endOfString(text, index);
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

/** The value of a JSON text; undefined when it is not JSON or an object in it repeats a name. */
export function parseJsonStrictly(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return hasRepeatedName(text) ? undefined : value;
}
