import { API_ERROR_STATUS } from './http-status';

// The same from AWS WAF and the local runner. WAF sends one fixed body, so the page speaks both languages.
export const TOO_MANY_REQUESTS_STATUS = API_ERROR_STATUS.rate_limited;
export const TOO_MANY_REQUESTS_CONTENT_TYPE = 'text/html; charset=utf-8';
export const TOO_MANY_REQUESTS_RETRY_AFTER = '60';

/** A page that says one thing, with nothing inline, so it reads the same under the strict CSP. */
export const noticePage = (language: string, title: string, main: string) => `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} – Mandje</title>
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`;

export const TOO_MANY_REQUESTS_HTML = noticePage(
  'nl',
  'Even geduld',
  `<h1>Even geduld</h1>
<p>Er kwamen net te veel aanvragen van jouw verbinding. Wacht een minuut en probeer het dan opnieuw.</p>
<p><a href="/#signup">Terug naar Mandje</a></p>
<div lang="en">
<h2>Please wait a moment</h2>
<p>Too many requests came from your connection just now. Wait a minute, then try again.</p>
<p><a href="/en/#signup">Back to Mandje</a></p>
</div>`,
);
