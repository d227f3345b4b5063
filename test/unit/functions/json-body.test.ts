/** A JSON body that names a member twice is refused, at any depth, however the name is spelled. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonStrictly } from '../../../functions/strict-input';

describe('a repeated name in JSON', () => {
  const REPEATED: [string, string][] = [
    ['at the top', '{"email":"a@example.nl","email":"b@example.nl"}'],
    ['spelled with an escape', '{"email":"a@example.nl","\\u0065mail":"b@example.nl"}'],
    ['in a nested object', '{"a":{"b":1,"b":2}}'],
    ['in an object inside an array', '[{"x":1},{"y":1,"y":1}]'],
    ['after a nested object with the same names', '{"a":{"a":1},"b":[{"a":2}],"a":3}'],
    ['around white space', '{ "a" : 1 ,\n "a" : 2 }'],
    ['__proto__ twice', '{"__proto__":1,"__proto__":2}'],
  ];

  it.each(REPEATED)('is found %s', (_where, text) => {
    expect(JSON.parse(text)).toBeDefined();
    expect(parseJsonStrictly(text)).toBeUndefined();
  });

  const DISTINCT: [string, string][] = [
    ['one name per object, the same in sibling objects', '[{"a":1},{"a":2}]'],
    ['the same name in parent and child', '{"a":{"a":{"a":1}}}'],
    ['a value that looks like a name', '{"a":"a","b":"a"}'],
    ['braces, commas and quotes inside strings', '{"a":"{\\"a\\":1,","b":"}]\\\\","c":"a"}'],
    ['names that differ only in case', '{"Email":1,"email":2}'],
    ['no object at all', '["a","a"]'],
  ];

  it.each(DISTINCT)('is not seen where there is none: %s', (_where, text) => {
    expect(parseJsonStrictly(text)).toEqual(JSON.parse(text));
  });

  it('is never seen in JSON that JSON.stringify wrote (its objects cannot repeat a name)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(parseJsonStrictly(text)).toEqual(JSON.parse(text));
      }),
    );
  });

  it('is always seen when a member is written again into any object', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }),
        fc.nat(),
        fc.jsonValue(),
        (object, pick, again) => {
          const names = Object.keys(object);
          const name = names[pick % names.length] as string;
          const text = `${JSON.stringify(object).slice(0, -1)},${JSON.stringify(name)}:${JSON.stringify(again)}}`;
          expect(parseJsonStrictly(`[${text}]`)).toBeUndefined();
          expect(parseJsonStrictly(`{"outer":${text}}`)).toBeUndefined();
        },
      ),
    );
  });

  it('leaves text that is not JSON to be refused as such', () => {
    expect(parseJsonStrictly('{"a":1,')).toBeUndefined();
  });
});
