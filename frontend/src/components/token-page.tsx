import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useLanguage } from '@/i18n/language-context';
import { primaryButton } from './control-styles';
import { Mascot } from './mascot';
import { ResultSummary, type ResultSummaryProps } from './result-summary';
import { SiteFooter } from './site-footer';
import { Spinner } from './spinner';
import { SubpageHeader } from './subpage-header';

/** Where a page's token travels: the link's query parameter, and the form's field (a placeholder until served). */
export interface TokenPlaces {
  parameter: string;
  field: string;
  placeholder: string;
}

/**
 * The token of the link that opened the page, for the script to send: in the page's form, where the API
 * put it when it served the page; from the link itself where nobody did (the dev server, which leaves the
 * placeholder or has no prerendered page).
 */
export function tokenIn(root: ParentNode, search: string, places: TokenPlaces): string {
  const field = root.querySelector<HTMLInputElement>(`input[name="${places.field}"]`);
  if (field && field.value !== places.placeholder) return field.value;
  return new URLSearchParams(search).get(places.parameter) ?? '';
}

/** Takes the token out of the address bar, so it stays out of the history, bookmarks and shared links. */
function removeTokenFromAddress(parameter: string): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(parameter)) return;
  url.searchParams.delete(parameter);
  window.history.replaceState(window.history.state, '', url);
}

export interface TokenPageProps<Result> {
  token: string;
  places: TokenPlaces;
  /** Where the button posts without a script. */
  action: string;
  title: string;
  /** The text under the heading, until a final result. */
  intro: ReactNode;
  /** The mascot over the heading. */
  mascot?: boolean;
  button: string;
  sending: string;
  send: (token: string) => Promise<Result>;
  summarize: (result: Result) => ResultSummaryProps;
  /** Whether a result ends what the page asks for: the button goes; after any other, it stays to try again. */
  isFinal: (result: Result) => boolean;
  /** Given, a final result takes the page's place, heading and all, and this names the document. */
  finalTitle?: (result: Result) => string;
}

/**
 * A page a link in a mail opens (the confirmation and leave links, served by the API). Opening it changes
 * nothing, since mail scanners open links too; pressing its one button does. Like the waitlist form, in two
 * steps:
 * - As prerendered, before or without the script, the button posts a plain form with the token and the
 *   page's language, and the API answers with a redirect to a result page.
 * - Once the script runs, the page sends the token with fetch and shows the result in place, announced,
 *   with the focus on it.
 * The page never shows an address, so it tells nobody whether one is on the list.
 */
export function TokenPage<Result>(props: TokenPageProps<Result>) {
  const { token, places, finalTitle } = props;
  const { locale } = useLanguage();
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => removeTokenFromAddress(places.parameter), [places.parameter]);
  useEffect(() => {
    if (result !== null) resultHeading.current?.focus();
  }, [result]);
  const final = result !== null && props.isFinal(result);
  const replaced = final && finalTitle !== undefined;
  useEffect(() => {
    if (result !== null && replaced) document.title = finalTitle(result);
  }, [result, replaced, finalTitle]);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    setResult(null);
    setSending(true);
    const outcome = await props.send(token);
    setSending(false);
    setResult(outcome);
  };

  const summary = result !== null ? props.summarize(result) : null;
  const shownSummary = summary && (
    <ResultSummary {...summary} headingLevel={replaced ? 1 : 2} headingRef={resultHeading} />
  );
  const spaced = replaced ? '' : 'not-empty:mt-10';

  return (
    <>
      <SubpageHeader languageSwitch={false} />
      <main id="main" className="bg-paper">
        <div className="mx-auto max-w-xl px-4 py-16 sm:px-6 sm:py-24">
          {!replaced && (
            <>
              {props.mascot && <Mascot label="" eager className="h-auto w-20" />}
              <h1
                className={`${props.mascot ? 'mt-6 ' : ''}text-3xl font-extrabold tracking-tight text-balance text-stone-950 sm:text-4xl`}
              >
                {props.title}
              </h1>
            </>
          )}
          {!final && props.intro}
          {/* Both live regions are always in the page, so a result that appears in one is announced. */}
          <div role="status" className={spaced}>
            {summary && !summary.problem && shownSummary}
          </div>
          <div role="alert" className={spaced}>
            {summary?.problem && shownSummary}
          </div>
          {!final && (
            <form
              method="post"
              action={props.action}
              onSubmit={handleSubmit}
              aria-busy={sending}
              className="mt-8"
            >
              <input type="hidden" name={places.field} value={token} />
              <input type="hidden" name="language" value={locale} />
              <button type="submit" disabled={sending} className={primaryButton}>
                {sending && <Spinner className="border-white/60" />}
                {sending ? props.sending : props.button}
              </button>
            </form>
          )}
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
