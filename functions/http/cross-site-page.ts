import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { API_ERROR_STATUS } from '#contract/http-status';
import type { Locale } from '#contract/locales';

// Nothing inline, so it reads the same under the strict CSP.

type CrossSiteAbout = 'signup' | 'confirmation' | 'leaving';

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

const COPY: Record<Locale, typeof nl> = { nl, en };

function crossSitePageHtml(about: CrossSiteAbout, language: Locale): string {
  const copy = COPY[language];
  const { title, body } = copy[about];
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} – Mandje</title>
</head>
<body>
<main>
<h1>${title}</h1>
<p>${body}</p>
<p><a href="${copy.home}">${copy.link}</a></p>
</main>
</body>
</html>
`;
}

export function crossSitePage(about: CrossSiteAbout, language: Locale): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: API_ERROR_STATUS.forbidden,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    body: crossSitePageHtml(about, language),
  };
}
