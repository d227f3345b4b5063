// What a function reads, read strictly: a setting it cannot run without, JSON whose meaning is no guess.

export function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is required`);
  return value;
}

/** The strings in what JSON.parse made: each object's names and every string value. */
const stringsIn = (node: unknown): number =>
  typeof node === 'string'
    ? 1
    : typeof node === 'object' && node !== null
      ? Object.values(node).reduce(
          (sum: number, child) => sum + stringsIn(child),
          Array.isArray(node) ? 0 : Object.keys(node).length,
        )
      : 0;

// RFC 8259 leaves a repeated member name's meaning open and JSON.parse keeps the last, so
// `{"email":"a@x","email":"b@y"}` is refused, at any depth. Every string of the text is a name or a value:
// fewer in what JSON.parse made means a name came twice (as decoded: `"\u0061"` is `"a"`).
export function parseJsonStrictly(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return (text.match(/"(?:[^"\\]|\\.)*"/g) ?? []).length === stringsIn(value) ? value : undefined;
}
