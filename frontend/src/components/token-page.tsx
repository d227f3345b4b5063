import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { siteConfig } from '@/config/site';
import { fillIn } from '@/i18n/fill-in';
import { useLanguage } from '@/i18n/language-context';
import { SubmitButton } from './form-parts';
import { Mascot } from './mascot';
import { ResultSummary, type ResultSummaryProps, SmallPage } from './result-summary';

/** The token the API put in the form's `field`; on the dev server, which leaves the `placeholder`, the link's. */
export const tokenReader =
  (parameter: string, field: string, placeholder: string) => (root: ParentNode, search: string) => {
    const input = root.querySelector<HTMLInputElement>(`input[name="${field}"]`);
    return input && input.value !== placeholder
      ? input.value
      : (new URLSearchParams(search).get(parameter) ?? '');
  };

// A page a mail's link opens: opening it changes nothing, since mail scanners open links too; its button
// does. Without the script the button posts a form and the API redirects to a result page; with it, the
// result is shown in place. A result but `try-again` removes the button; given `finalTitle`, it also takes
// the page's place, heading and all, and names the document.
export function TokenPage<Result extends string>(props: {
  token: string;
  parameter: string;
  field: string;
  action: string;
  title: string;
  /** `intro` names the brand as `{brand}`. */
  copy: { intro: string; button: string; sending: string };
  detail: ReactNode;
  mascot?: boolean;
  send: (token: string) => Promise<Result>;
  summarize: (result: Result) => ResultSummaryProps;
  finalTitle?: (result: Result) => string;
}) {
  const { token, parameter, finalTitle } = props;
  const { locale } = useLanguage();
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  // Keeps the token out of the history, bookmarks and shared links.
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has(parameter)) return;
    url.searchParams.delete(parameter);
    window.history.replaceState(window.history.state, '', url);
  }, [parameter]);
  useEffect(() => {
    if (result !== null) resultHeading.current?.focus();
  }, [result]);
  const final = result !== null && result !== 'try-again';
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
    <SmallPage languageSwitch={false}>
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
      {!final && (
        <>
          <p className="mt-6 text-lg text-pretty text-stone-800">
            {fillIn(props.copy.intro, { brand: siteConfig.brandName })}
          </p>
          <p className="mt-3 text-pretty text-stone-700">{props.detail}</p>
        </>
      )}
      {/* Both live regions are always present, so a result appearing in one is announced. */}
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
          <input type="hidden" name={props.field} value={token} />
          <input type="hidden" name="language" value={locale} />
          <SubmitButton busy={sending} label={props.copy.button} busyLabel={props.copy.sending} />
        </form>
      )}
    </SmallPage>
  );
}
