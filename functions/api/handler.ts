import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type ApiRoute, isApiRoute } from '#contract/api-routes';
import { CONFIRM_PATH } from '#contract/confirmation';
import { LEAVE_PATH, LEAVE_REQUEST_PATH } from '#contract/leave';
import { VISIT_PATH } from '#contract/visit-counting';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { handler as confirm } from '../confirm/handler';
import { jsonAnswer } from '../http/http-handler';
import { handler as leave } from '../leave/handler';
import { handler as requestLeaveLink } from '../leave-link/handler';
import { countVisits, handler as join } from '../waitlist/handler';

const HANDLERS: Record<ApiRoute, typeof confirm> = {
  [WAITLIST_PATH]: join,
  [VISIT_PATH]: countVisits,
  [CONFIRM_PATH]: confirm,
  [LEAVE_PATH]: leave,
  [LEAVE_REQUEST_PATH]: requestLeaveLink,
};

// rawPath is the path as the client sent it, and API Gateway may hand on a spelling it resolves to a route
// (a trailing slash, dot segments, percent-encoding): only a route spelled exactly reaches a handler
// (#contract/api-routes). The runner sends unknown paths here too.
export const handler = async (event: APIGatewayProxyEventV2) =>
  isApiRoute(event.rawPath) ? HANDLERS[event.rawPath](event) : jsonAnswer(404, { error: 'not_found' });
