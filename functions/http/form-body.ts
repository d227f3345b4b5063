/**
 * Reads an `application/x-www-form-urlencoded` body, as an HTML form posts it, strictly: the WHATWG
 * parsing rules (`&` between fields, `=` between name and value, `+` for a space, `%XX` for a byte), except
 * that percent-escaped bytes must be valid UTF-8 and a field may appear only once. URLSearchParams would
 * turn broken bytes into U+FFFD, so two different addresses could become one; here they are refused.
 */

// ignoreBOM: a byte order mark is kept as a character, not silently dropped.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const ENCODER = new TextEncoder();
const PERCENT = 0x25;
const PLUS = 0x2b;
const SPACE = 0x20;

const hexValue = (byte: number | undefined): number => {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
};

/** One name or value, `+` and `%XX` decoded; undefined when the bytes are not UTF-8. */
function decodeComponent(text: string): string | undefined {
  const input = ENCODER.encode(text);
  const output = new Uint8Array(input.length);
  let length = 0;
  for (let index = 0; index < input.length; index++) {
    const byte = input[index] as number;
    if (byte === PLUS) {
      output[length++] = SPACE;
      continue;
    }
    const high = byte === PERCENT ? hexValue(input[index + 1]) : -1;
    const low = high >= 0 ? hexValue(input[index + 2]) : -1;
    if (low >= 0) {
      output[length++] = high * 16 + low;
      index += 2;
    } else {
      // A `%` without two hex digits stays itself, as browsers and URLSearchParams read it.
      output[length++] = byte;
    }
  }
  try {
    return STRICT_UTF8.decode(output.subarray(0, length));
  } catch {
    return undefined;
  }
}

export type FormBody = { ok: true; fields: Record<string, string> } | { ok: false };

/** The fields of a form body (already checked to be UTF-8 text); not ok for broken bytes or a repeated field. */
export function parseFormBody(body: string): FormBody {
  const fields: Record<string, string> = Object.create(null);
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decodeComponent(equals === -1 ? pair : pair.slice(0, equals));
    const value = decodeComponent(equals === -1 ? '' : pair.slice(equals + 1));
    if (name === undefined || value === undefined || Object.hasOwn(fields, name)) return { ok: false };
    fields[name] = value;
  }
  return { ok: true, fields };
}
