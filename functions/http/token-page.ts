import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#contract/locales';

/** A token is base64url; anything else is left out of the page rather than escaped into it. */
const PRINTABLE_TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

export interface TokenPageSettings {
  /** The folder of the prerendered pages: the function's own, unless a variable says otherwise (locally). */
  dir: string | undefined;
  fileOf: (language: Locale) => string;
  languageParameter: string;
  tokenParameter: string;
  /** What the page's form holds where the token goes. */
  placeholder: string;
}

/**
 * Serves the page a mail's link opens (confirm, leave): the prerendered page in the link's language, read
 * once, with the link's token in its form. HEAD (link checkers) gets the same status and headers without
 * the page. Showing it changes nothing: mail scanners open links.
 */
export function tokenPage(settings: TokenPageSettings) {
  const dir = settings.dir ?? dirname(fileURLToPath(import.meta.url));
  const pages = new Map<Locale, string>();
  return (event: APIGatewayProxyEventV2): APIGatewayProxyStructuredResultV2 => {
    const parameters = new URLSearchParams(event.rawQueryString);
    const requested = parameters.get(settings.languageParameter);
    const language = isLocale(requested) ? requested : DEFAULT_LOCALE;
    const token = parameters.get(settings.tokenParameter) ?? '';
    let page = pages.get(language);
    if (page === undefined) {
      page = readFileSync(join(dir, settings.fileOf(language)), 'utf8');
      pages.set(language, page);
    }
    return {
      statusCode: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      body:
        event.requestContext.http.method === 'HEAD'
          ? ''
          : page.replace(settings.placeholder, () => (PRINTABLE_TOKEN.test(token) ? token : '')),
    };
  };
}
