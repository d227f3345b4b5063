/** What an API path is (one rule for the edge, the runner and the function): a route spelled exactly. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countsTowardClientLimit } from '#contract/abuse-limits';
import { API_ROUTES, type ApiRoute, isApiRoute } from '#contract/api-routes';
import { CONFIRM_PATH } from '#contract/confirmation';
import { LEAVE_REQUEST_PATH } from '#contract/leave';
import { WAITLIST_PATH } from '#contract/waitlist-api';

const ROUTES = Object.keys(API_ROUTES) as ApiRoute[];

/** Where a lenient server would take a path: percent-decoded, backslashes as slashes, doubled slashes as
 * one, dot segments resolved, a trailing slash dropped. */
const resolved = (path: string) => {
  const tidy = decodeURIComponent(path).replace(/[\\/]+/g, '/');
  return new URL(`http://x${tidy}`).pathname.replace(/(.)\/$/, '$1');
};

/** One change to a path that a lenient server undoes: `at` picks where. Escapes are in capitals, so no
 * change encodes a letter of one. */
const spellings: ((path: string, at: number) => string)[] = [
  (path, at) => insertAtSlash(path, at, '/leave/..'),
  (path, at) => insertAtSlash(path, at, '/visit/%2E%2E'),
  (path, at) => insertAtSlash(path, at, '/.'),
  (path, at) => insertAtSlash(path, at, '/'),
  (path, at) => replaceSlash(path, at, '\\'),
  (path, at) => replaceSlash(path, at, '%2F'),
  (path, at) => {
    const letters = indexesOf(path, /[a-z-]/);
    const index = letters[at % letters.length] ?? 0;
    const hex = (path.codePointAt(index) ?? 0).toString(16);
    return `${path.slice(0, index)}%${hex.toUpperCase()}${path.slice(index + 1)}`;
  },
  (path) => `${path}/`,
];
const indexesOf = (path: string, pattern: RegExp) =>
  [...path].flatMap((char, index) => (pattern.test(char) ? [index] : []));
function atSlash(path: string, at: number, change: (index: number) => string) {
  const slashes = indexesOf(path, /\//);
  const index = slashes[at % slashes.length];
  return index === undefined ? path : change(index);
}
const insertAtSlash = (path: string, at: number, text: string) =>
  atSlash(path, at, (index) => path.slice(0, index) + text + path.slice(index));
const replaceSlash = (path: string, at: number, text: string) =>
  atSlash(path, at, (index) => path.slice(0, index) + text + path.slice(index + 1));

describe('an API path', () => {
  it('is each route as spelled', () => {
    for (const route of ROUTES) expect(isApiRoute(route), route).toBe(true);
  });

  it.each([
    '/api/leave/../waitlist',
    '/api/leave/%2e%2e/waitlist',
    '/api/leave/..\\waitlist',
    '/api/visit/../waitlist',
    '/api/waitlist/',
    '/api//waitlist',
    '/api/%77aitlist',
    '/api/toString',
    '/api/__proto__',
    '/api/',
  ])('is not %s', (path) => {
    expect(isApiRoute(path)).toBe(false);
  });

  it('is no other spelling of a route, whatever a server would resolve it to', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ROUTES),
        fc.array(fc.tuple(fc.nat(spellings.length - 1), fc.nat()), { minLength: 1, maxLength: 3 }),
        (route, changes) => {
          const spelling = changes.reduce<string>(
            (path, [change, at]) => spellings[change]?.(path, at) ?? path,
            route,
          );
          expect(resolved(spelling)).toBe(route);
          expect(isApiRoute(spelling), spelling).toBe(false);
        },
      ),
    );
  });
});

it('counts posts to every route towards the per-client limit but leaving and the visit beacon, which send no mail', () => {
  expect(ROUTES.filter((route) => countsTowardClientLimit('POST', route))).toEqual([
    WAITLIST_PATH,
    CONFIRM_PATH,
    LEAVE_REQUEST_PATH,
  ]);
  expect(ROUTES.filter((route) => countsTowardClientLimit('GET', route))).toEqual([]);
});
