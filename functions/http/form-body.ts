// The WHATWG form rules, but escaped bytes must be valid UTF-8 and a field may come only once:
// URLSearchParams turns broken bytes into U+FFFD, so two different addresses could become one.

function decodeComponent(text: string): string | undefined {
  try {
    // A `%` without two hex digits stays itself, as browsers read it.
    return decodeURIComponent(text.replaceAll('+', ' ').replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
  } catch {
    return undefined;
  }
}

/** Undefined for broken bytes or a field sent twice. */
export function parseFormBody(body: string): Record<string, string> | undefined {
  const fields: Record<string, string> = Object.create(null);
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = decodeComponent(equals === -1 ? pair : pair.slice(0, equals));
    const value = decodeComponent(equals === -1 ? '' : pair.slice(equals + 1));
    if (name === undefined || value === undefined || Object.hasOwn(fields, name)) return undefined;
    fields[name] = value;
  }
  return fields;
}
