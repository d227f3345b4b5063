// Double opt-in: `GET /api/confirm?lang=…&t=…` shows the page (mail scanners open links), only the POST
// confirms. No answer says whether an address is on the list: only a token's holder learns its fate.
import { statusTable } from './http-status';
import { type Locale, resultPaths } from './locales';

export const CONFIRM_PATH = '/api/confirm';

/** The query of every link a mail carries to a page of the API: this one and the leave page. */
export const TOKEN_PARAMETER = 't';
export const LANGUAGE_PARAMETER = 'lang';
export const TOKEN_FIELD = 'token';

/** Prerendered in the form's hidden field; the function puts the link's token there when serving it. */
export const TOKEN_PLACEHOLDER = '__confirmation_token__';

/** In dist/.mandje/. */
export const confirmPageFile = (language: Locale) => `confirm.${language}.html`;

/* @__NO_SIDE_EFFECTS__ */
export const tokenLink = (path: string) => (siteUrl: string, language: Locale, token: string) => {
  const url = new URL(path, siteUrl);
  url.searchParams.set(LANGUAGE_PARAMETER, language);
  url.searchParams.set(TOKEN_PARAMETER, token);
  return url.href;
};

export const confirmationLink = tokenLink(CONFIRM_PATH);

export type ConfirmRequest = { token: string; language?: Locale };

/** `invalid`: not a token this site makes; `unknown`: the right shape, confirming nothing. */
export const CONFIRM_RESULTS = ['confirmed', 'already-confirmed', 'expired', 'invalid', 'unknown'] as const;
export type ConfirmResult = (typeof CONFIRM_RESULTS)[number];

export const CONFIRM_HTTP_STATUS = statusTable({ result: 200 }, ['invalid_email', 'already_registered']);

export type ConfirmError = Exclude<keyof typeof CONFIRM_HTTP_STATUS, 'result'>;

export const CONFIRM_RESULT_PAGES = [...CONFIRM_RESULTS, 'try-again'] as const;
export type ConfirmResultPage = (typeof CONFIRM_RESULT_PAGES)[number];

export const CONFIRM_RESULT_PATH = resultPaths('confirm', CONFIRM_RESULT_PAGES);
