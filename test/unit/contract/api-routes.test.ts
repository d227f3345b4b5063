/** What an API path is (one rule for the edge, the runner and the function): a route spelled exactly. */
import { describe, expect, it } from 'vitest';
import { API_ROUTES, type ApiRoute, isApiRoute } from '#contract/api-routes';

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
