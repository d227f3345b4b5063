import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { LANGUAGE_PARAMETER, TOKEN_PARAMETER } from '#contract/confirmation';
import { API_ERROR_STATUS } from '#contract/http-status';
import { DEFAULT_LOCALE, isLocale, type Locale } from '#contract/locales';
import { noticePage } from '#contract/too-many-requests';

/** A token is base64url; anything else is left out of the page rather than escaped into it. */
const PRINTABLE_TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

/** The prerendered page a mail's link opens, with the link's token in its form; HEAD gets no body. */
export function tokenPage(
  dir = import.meta.dirname,
  fileOf: (language: Locale) => string,
  placeholder: string,
) {
  const pages = new Map<Locale, string>();
  return (event: APIGatewayProxyEventV2): APIGatewayProxyStructuredResultV2 => {
    const parameters = new URLSearchParams(event.rawQueryString);
    const requested = parameters.get(LANGUAGE_PARAMETER);
    const language = isLocale(requested) ? requested : DEFAULT_LOCALE;
    const token = parameters.get(TOKEN_PARAMETER) ?? '';
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

const nl = {
  signup: {
    title: 'Aanmelding niet verwerkt',
    body: 'Je aanmelding is niet aangenomen, omdat het formulier van een andere website kwam. Er is niets bewaard en er is geen mail verstuurd. Meld je aan via het formulier op de site van Mandje zelf.',
  },
  confirmation: {
    title: 'Bevestiging niet verwerkt',
    body: 'Je bevestiging is niet aangenomen, omdat het formulier van een andere website kwam. Er is niets veranderd. Open de link in je bevestigingsmail en bevestig op de site van Mandje zelf.',
  },
  leaving: {
    title: 'Verzoek niet verwerkt',
    body: 'Je verzoek is niet aangenomen, omdat het formulier van een andere website kwam. Er is niets veranderd. Gebruik de link in een mail van Mandje, of het formulier in de privacyverklaring op de site van Mandje zelf.',
  },
  link: 'Naar Mandje',
  home: '/',
};

const en = {
  signup: {
    title: 'Signup not taken',
    body: 'Your signup was not taken, because the form came from another website. Nothing was kept and no mail was sent. Sign up with the form on Mandje’s own site.',
  },
  confirmation: {
    title: 'Confirmation not taken',
    body: 'Your confirmation was not taken, because the form came from another website. Nothing was changed. Open the link in your confirmation mail and confirm on Mandje’s own site.',
  },
  leaving: {
    title: 'Request not taken',
    body: 'Your request was not taken, because the form came from another website. Nothing was changed. Use the link in a mail from Mandje, or the form in the privacy notice on Mandje’s own site.',
  },
  link: 'Go to Mandje',
  home: '/en/',
} satisfies typeof nl;

export function crossSitePage(
  about: 'signup' | 'confirmation' | 'leaving',
  language: Locale,
): APIGatewayProxyStructuredResultV2 {
  const { [about]: page, home, link } = { nl, en }[language];
  return {
    statusCode: API_ERROR_STATUS.forbidden,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    body: noticePage(
      language,
      page.title,
      `<h1>${page.title}</h1>\n<p>${page.body}</p>\n<p><a href="${home}">${link}</a></p>`,
    ),
  };
}
