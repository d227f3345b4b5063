/** What an API path is (one rule for the edge, the runner and the function): a route spelled exactly. */
import { describe, expect, it } from 'vitest';
import { countsTowardClientLimit } from '#contract/abuse-limits';
import { API_ROUTES, type ApiRoute, isApiRoute } from '#contract/api-routes';
import { CONFIRM_PATH } from '#contract/confirmation';
import { LEAVE_REQUEST_PATH } from '#contract/leave';
import { WAITLIST_PATH } from '#contract/waitlist-api';

const ROUTES = Object.keys(API_ROUTES) as ApiRoute[];

describe('an API path', () => {
  it('is each route as spelled', () => {
    for (const route of ROUTES) expect(isApiRoute(route), route).toBe(true);
  });

  it.each([
    '/api/leave/../waitlist',
    '/api/leave/%2e%2e/waitlist',
    '/api/leave%2Frequest',
    '/api/./confirm',
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
});

it('counts posts to every route towards the per-client limit but leaving and the visit beacon, which send no mail', () => {
  expect(ROUTES.filter((route) => countsTowardClientLimit('POST', route))).toEqual([
    WAITLIST_PATH,
    CONFIRM_PATH,
    LEAVE_REQUEST_PATH,
  ]);
  expect(ROUTES.filter((route) => countsTowardClientLimit('GET', route))).toEqual([]);
});
