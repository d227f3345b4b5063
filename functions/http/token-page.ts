import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#contract/locales';

/** A token is base64url; anything else is left out of the page rather than escaped into it. */
const PRINTABLE_TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

/** The prerendered page a mail's link opens, with the link's token in its form; HEAD gets no body. */
export function tokenPage(
  dir = import.meta.dirname,
  fileOf: (language: Locale) => string,
  placeholder: string,
  [languageParameter, tokenParameter]: [string, string],
) {
  const pages = new Map<Locale, string>();
  return (event: APIGatewayProxyEventV2): APIGatewayProxyStructuredResultV2 => {
    const parameters = new URLSearchParams(event.rawQueryString);
    const requested = parameters.get(languageParameter);
    const language = isLocale(requested) ? requested : DEFAULT_LOCALE;
    const token = parameters.get(tokenParameter) ?? '';
    const page = pages.get(language) ?? readFileSync(join(dir, fileOf(language)), 'utf8');
    pages.set(language, page);
    return {
      statusCode: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      body:
        event.requestContext.http.method === 'HEAD'
          ? ''
          : page.replace(placeholder, () => (PRINTABLE_TOKEN.test(token) ? token : '')),
    };
  };
}
