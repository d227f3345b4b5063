import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import {
  CONFIRM_HTTP_STATUS,
  CONFIRM_RESULT_PATH,
  type ConfirmError,
  type ConfirmResponse,
  type ConfirmResult,
  confirmPageFile,
  TOKEN_FIELD,
  TOKEN_PLACEHOLDER,
} from '#contract/confirmation';
import { DEFAULT_LOCALE, LOCALES } from '#contract/locales';
import { METRIC } from '#contract/metrics';
import { crossSitePage, tokenPage } from '../http/html-pages';
import { type Decision, httpHandler, jsonAnswer, outcomeOrFault, seeOther } from '../http/http-handler';
import { opensPage, requestGuardSettingsFrom } from '../http/origin-guard';
import { guardedBody } from '../http/post-body';
import { storeFromEnvironment } from '../store/store-client';
import { confirmSignup } from './confirm-signup';

const store = storeFromEnvironment();
const guard = requestGuardSettingsFrom(process.env);
const showPage = tokenPage(process.env.CONFIRM_PAGES_DIR, confirmPageFile, TOKEN_PLACEHOLDER);

const confirmRequestSchema = z.object({ [TOKEN_FIELD]: z.string(), language: z.optional(z.enum(LOCALES)) });

type Outcome = ConfirmResult | ConfirmError | 'page';

async function decide(event: APIGatewayProxyEventV2): Promise<Decision<Outcome>> {
  if (opensPage(event, guard)) return { outcome: 'page' };
  const body = guardedBody(event, guard);
  if ('outcome' in body) return body;
  const shape = confirmRequestSchema.safeParse(body.fields);
  if (!shape.success) return { outcome: 'invalid_request', form: body.form };
  const { language, [TOKEN_FIELD]: token } = shape.data;
  const confirmed = await outcomeOrFault((abortSignal) => confirmSignup(store, token, { abortSignal }));
  return { form: body.form, language, ...confirmed };
}

export const handler = httpHandler<Outcome>(
  'confirm',
  {
    page: undefined,
    confirmed: METRIC.confirmed,
    'already-confirmed': METRIC.alreadyConfirmed,
    expired: METRIC.linkRefused,
    invalid: METRIC.linkRefused,
    unknown: METRIC.linkRefused,
  },
  decide,
  ({ outcome, form, language = DEFAULT_LOCALE }, event) => {
    if (outcome === 'page') return showPage(event);
    if (form === 'form' && outcome === 'forbidden') return crossSitePage('confirmation', language);
    const isResult = !Object.hasOwn(CONFIRM_HTTP_STATUS, outcome);
    const fault = outcome === 'unavailable' || outcome === 'internal';
    const page = isResult ? (outcome as ConfirmResult) : fault ? 'try-again' : 'invalid';
    if (form === 'form' && (isResult || fault || outcome === 'invalid_request'))
      return seeOther(CONFIRM_RESULT_PATH[page][language]);
    const error = outcome as ConfirmError;
    const body: ConfirmResponse = isResult ? { result: page as ConfirmResult } : { error };
    return jsonAnswer(CONFIRM_HTTP_STATUS[isResult ? 'result' : error], body, 'GET, HEAD, POST');
  },
);
