import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { TOKEN_FIELD, TOKEN_PARAMETER } from '#contract/confirmation';
import type { Locale } from '#contract/locales';
import { PENDING_DAYS } from '#contract/waitlist-table';
import { siteConfig } from '@/config/site';
import { fillIn } from '@/i18n/fill-in';
import { type LanguageState, type Messages, useLanguage } from '@/i18n/language-context';
import { PAGE_PATH } from '@/i18n/page-paths';
import { Mascot } from './brand-logo';
import { SubmitButton } from './form-parts';
import { SIGNUP_SECTION_ID } from './go-to-signup';
import { PageFrame, ResultPage, ResultSummary, type ResultSummaryProps } from './page-frame';

/** The token the API put in the form; on the dev server, which leaves the `placeholder`, the link's. */
export const tokenReader = (placeholder: string) => (root: ParentNode, search: string) => {
  const input = root.querySelector<HTMLInputElement>(`input[name="${TOKEN_FIELD}"]`);
  if (input && input.value !== placeholder) return input.value;
  return new URLSearchParams(search).get(TOKEN_PARAMETER) ?? '';
};

type Outcome<Result extends string> = Result | 'try-again';
type TokenCopy<Result extends string> = {
  page: { intro: string; button: string; sending: string };
  results: Record<Outcome<Result>, { body: string; next: string }>;
  tryAgainWithoutScript: string;
  signUpAgain: string;
};

/** What a page a mail's link opens posts, and what it says (`intro` names the brand as `{brand}`). */
export interface TokenFlow<Result extends string> {
  action: string;
  title: (meta: Messages['meta']) => string;
  resultTitle: (result: Outcome<Result>, meta: Messages['meta']) => string;
  copy: Record<Locale, TokenCopy<Result>>;
  detail: (locale: Locale, messages: Messages) => ReactNode;
  send: (token: string) => Promise<Outcome<Result>>;
  /** Good news, announced politely; any other result is a problem. */
  settled: readonly Result[];
  /** The results after which the way on is to sign up again; after the others, home. */
  signUpAgain: readonly Result[];
  /** A moment (a signup confirmed): the mascot marks it, and a final result takes the page's place. */
  moment?: boolean;
}

/** The same words in place and on a result page, but after a fault: in place the button stays. */
function summarize<Result extends string>(
  flow: TokenFlow<Result>,
  result: Outcome<Result>,
  ownPage: boolean,
  { locale, messages }: LanguageState,
): ResultSummaryProps {
  const copy = flow.copy[locale];
  const facts = { brand: siteConfig.brandName, days: PENDING_DAYS };
  const home = { href: PAGE_PATH.home[locale], label: messages.common.backToHome };
  const settled = result !== 'try-again' && flow.settled.includes(result);
  const failed = result === 'try-again';
  const again = { href: `${home.href}#${SIGNUP_SECTION_ID}`, label: copy.signUpAgain };
  return {
    title: flow.resultTitle(result, messages.meta),
    problem: !settled,
    mascot: flow.moment && settled,
    notice: { body: fillIn(copy.results[result].body, facts) },
    next: failed && ownPage ? copy.tryAgainWithoutScript : fillIn(copy.results[result].next, facts),
    action: failed ? (ownPage ? home : undefined) : flow.signUpAgain.includes(result) ? again : home,
  };
}

/** Where the form lands when posted without a script (the API answers 303). */
export function TokenResultPage<Result extends string>(props: {
  flow: TokenFlow<Result>;
  result: Outcome<Result>;
}) {
  return <ResultPage {...summarize(props.flow, props.result, true, useLanguage())} />;
}

// Opening the page changes nothing, since mail scanners open links too; its button does. Without the script
// the button posts a form and the API redirects to a result page; with it, the result is shown in place, and
// a result but `try-again` removes the button.
export function TokenPage<Result extends string>({
  flow,
  token,
}: {
  flow: TokenFlow<Result>;
  token: string;
}) {
  const language = useLanguage();
  const copy = flow.copy[language.locale].page;
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<Outcome<Result> | null>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  // Keeps the token out of the history, bookmarks and shared links.
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has(TOKEN_PARAMETER)) return;
    url.searchParams.delete(TOKEN_PARAMETER);
    window.history.replaceState(window.history.state, '', url);
  }, []);
  const summary = result && summarize(flow, result, false, language);
  const final = result !== null && result !== 'try-again';
  const replaced = final && flow.moment;
  const title = summary?.title;
  useEffect(() => {
    if (title === undefined) return;
    resultHeading.current?.focus();
    if (replaced) document.title = `${title} · ${siteConfig.brandName}`;
  }, [title, replaced]);
  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    setResult(null);
    setSending(true);
    const outcome = await flow.send(token);
    setSending(false);
    setResult(outcome);
  };
  const shown = summary && (
    <ResultSummary {...summary} headingLevel={replaced ? 1 : 2} headingRef={resultHeading} />
  );
  const spaced = replaced ? '' : 'not-empty:mt-10';
  return (
    <PageFrame small languageSwitch={false}>
      {!replaced && (
        <>
          {flow.moment && <Mascot label="" eager className="h-auto w-20" />}
          <h1
            className={`${flow.moment ? 'mt-6 ' : ''}text-3xl font-extrabold tracking-tight text-balance text-stone-950 sm:text-4xl`}
          >
            {flow.title(language.messages.meta)}
          </h1>
        </>
      )}
      {!final && (
        <>
          <p className="mt-6 text-lg text-pretty text-stone-800">
            {fillIn(copy.intro, { brand: siteConfig.brandName })}
          </p>
          <p className="mt-3 text-pretty text-stone-700">{flow.detail(language.locale, language.messages)}</p>
        </>
      )}
      {/* Both live regions are always present, so a result appearing in one is announced. */}
      <div role="status" className={spaced}>
        {summary && !summary.problem && shown}
      </div>
      <div role="alert" className={spaced}>
        {summary?.problem && shown}
      </div>
      {!final && (
        <form method="post" action={flow.action} onSubmit={handleSubmit} aria-busy={sending} className="mt-8">
          <input type="hidden" name={TOKEN_FIELD} value={token} />
          <input type="hidden" name="language" value={language.locale} />
          <SubmitButton busy={sending} label={copy.button} busyLabel={copy.sending} />
        </form>
      )}
    </PageFrame>
  );
}
