// punycode.js (mathiasbynens) by its file path, so Node's deprecated built-in `punycode` is never the one
// loaded; its ES module, so the page's bundle takes `decode` alone.
declare module 'punycode/punycode.es6.js' {
  /** Throws a RangeError for input that is not Punycode. */
  export function decode(input: string): string;
  export function encode(input: string): string;
}
