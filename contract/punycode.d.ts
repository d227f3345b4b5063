// punycode.js's ES module by path: never Node's deprecated built-in, and the page bundles `decode` alone.
declare module 'punycode/punycode.es6.js' {
  /** Throws a RangeError for input that is not Punycode. */
  export function decode(input: string): string;
  export function encode(input: string): string;
}
