import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { CONFIRM_PATH } from '#contract/confirmation';
import { LEAVE_PATH, LEAVE_REQUEST_PATH } from '#contract/leave';
import { VISIT_PATH } from '#contract/visit-counting';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { handler as confirm } from '../confirm/handler';
import { jsonAnswer } from '../http/http-handler';
import { handler as leave } from '../leave/handler';
import { handler as requestLeaveLink } from '../leave-request/handler';
import { handler as joinOrCountVisit } from '../waitlist/handler';

// A Map, so a path such as /api/toString finds no route on Object.prototype.
const API_ROUTES = new Map([
  [WAITLIST_PATH, joinOrCountVisit],
  [VISIT_PATH, joinOrCountVisit],
  [CONFIRM_PATH, confirm],
  [LEAVE_PATH, leave],
  [LEAVE_REQUEST_PATH, requestLeaveLink],
]);

// On AWS the API answers unknown paths itself; the local runner sends them here.
export const handler = async (event: APIGatewayProxyEventV2) =>
  API_ROUTES.get(event.rawPath)?.(event) ?? jsonAnswer(404, { error: 'not_found' });
