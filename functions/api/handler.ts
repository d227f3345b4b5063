import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { CONFIRM_PATH } from '#contract/confirmation';
import { LEAVE_PATH, LEAVE_REQUEST_PATH } from '#contract/leave';
import { VISIT_PATH } from '#contract/visit-counting';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { handler as confirm } from '../confirm/handler';
import { jsonAnswer } from '../http/http-handler';
import { handler as leave } from '../leave/handler';
import { handler as requestLeaveLink } from '../leave-request/handler';
import { handler as joinOrCountVisit } from '../waitlist/handler';

const API_ROUTES = {
  [WAITLIST_PATH]: joinOrCountVisit,
  [VISIT_PATH]: joinOrCountVisit,
  [CONFIRM_PATH]: confirm,
  [LEAVE_PATH]: leave,
  [LEAVE_REQUEST_PATH]: requestLeaveLink,
} satisfies Record<string, (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>>;

// On AWS the API answers unknown paths itself; the local runner sends them here.
const NOT_FOUND = jsonAnswer(404, { error: 'not_found' });

export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  const route = (API_ROUTES as Record<string, typeof confirm | undefined>)[event.rawPath];
  return route ? route(event) : NOT_FOUND;
}
