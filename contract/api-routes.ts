// What an API path is, for the edge, the runner and the function: a route character for character; any other
// spelling a server might resolve to one (dot segments, percent-encoding, slashes) is answered 404 first.
import { CONFIRM_PATH } from './confirmation';
import { LEAVE_PATH, LEAVE_REQUEST_PATH } from './leave';
import { VISIT_PATH } from './visit-counting';
import { WAITLIST_PATH } from './waitlist-api';

/** CloudFront's behaviour for the API, and the runner's: everything else is the page. */
export const API_PREFIX = '/api/';

/** Each route and its methods: GET and HEAD show the page a link opens and change nothing. */
export const API_ROUTES = {
  [WAITLIST_PATH]: ['POST'],
  [VISIT_PATH]: ['POST'],
  [CONFIRM_PATH]: ['GET', 'HEAD', 'POST'],
  [LEAVE_PATH]: ['GET', 'HEAD', 'POST'],
  [LEAVE_REQUEST_PATH]: ['POST'],
} as const;

export type ApiRoute = keyof typeof API_ROUTES;

/** `path` as sent, without the query: whether it is exactly a route (not a key of Object.prototype). */
export const isApiRoute = (path: string): path is ApiRoute => Object.hasOwn(API_ROUTES, path);
