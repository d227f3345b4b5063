// What a function reads, read strictly: a setting it cannot run without, JSON whose meaning is no guess.

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is required`);
  return value;
}

// RFC 8259 leaves a repeated member name's meaning open and JSON.parse keeps the last, so
// `{"email":"a@x","email":"b@y"}` is refused, at any depth. Names compare as decoded (`"\u0061"` is `"a"`).
export function parseJsonStrictly(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const open: (Set<string> | null)[] = [];
  let expectingName = false;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const names = open.at(-1);
      if (expectingName && names) {
        const name = JSON.parse(text.slice(index, end + 1)) as string;
        if (names.has(name)) return undefined;
        names.add(name);
        expectingName = false;
      }
      index = end;
    } else if (character === '{' || character === '[') {
      open.push(character === '{' ? new Set() : null);
      expectingName = character === '{';
    } else if (character === '}' || character === ']') {
      open.pop();
      expectingName = false;
    } else if (character === ',') {
      expectingName = open.at(-1) instanceof Set;
    }
  }
  return value;
}
