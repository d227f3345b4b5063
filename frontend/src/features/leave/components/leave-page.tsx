import { type FormEvent, useEffect, useRef, useState } from 'react';
import {
  LEAVE_PATH,
  LEAVE_TOKEN_FIELD,
  LEAVE_TOKEN_PARAMETER,
  LEAVE_TOKEN_PLACEHOLDER,
} from '#contract/leave';
import { primaryButton } from '@/components/control-styles';
import { ResultSummary } from '@/components/result-summary';
import { SiteFooter } from '@/components/site-footer';
import { Spinner } from '@/components/spinner';
import { SubpageHeader } from '@/components/subpage-header';
import { siteConfig } from '@/config/site';
import { leaveCopy } from '@/features/leave/copy/leave-copy';
import { type LeaveOutcome, requestToLeave } from '@/features/leave/request-to-leave';
import { fillIn } from '@/i18n/fill-in';
import { useLanguage } from '@/i18n/language-context';
import { leaveResultSummary } from './leave-result';

/**
 * The token of the link that opened the page, for the script to send: in the page's form, where the API
 * put it when it served the page; from the link itself where nobody did (the dev server).
 */
export function leaveTokenOfPage(root: ParentNode, search: string): string {
  const field = root.querySelector<HTMLInputElement>(`input[name="${LEAVE_TOKEN_FIELD}"]`);
  if (field && field.value !== LEAVE_TOKEN_PLACEHOLDER) return field.value;
  return new URLSearchParams(search).get(LEAVE_TOKEN_PARAMETER) ?? '';
}

/** Takes the token out of the address bar, so it stays out of the history, bookmarks and shared links. */
function removeTokenFromAddress(): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(LEAVE_TOKEN_PARAMETER)) return;
  url.searchParams.delete(LEAVE_TOKEN_PARAMETER);
  window.history.replaceState(window.history.state, '', url);
}

/**
 * The page a leave link in a mail opens (served by the API, #contract/leave). Opening it removes no one,
 * since mail scanners open links too; pressing its one button does. Without a script the button posts a
 * plain form and the API answers with a result page; with one, the page sends the token with fetch and
 * shows the result in place, announced, with the focus on it. Whoever the link belonged to, the answer is
 * the same, so the page tells nobody whether an address is on the list.
 */
export function LeavePage({ token }: { token: string }) {
  const { locale, messages } = useLanguage();
  const copy = leaveCopy[locale];
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<LeaveOutcome | null>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);

  useEffect(removeTokenFromAddress, []);
  useEffect(() => {
    if (result) resultHeading.current?.focus();
  }, [result]);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    setResult(null);
    setSending(true);
    const outcome = await requestToLeave(token);
    setSending(false);
    setResult(outcome);
  };

  const summary = result && leaveResultSummary(result, { locale, messages, shown: 'in-place' });
  const shownSummary = summary && <ResultSummary {...summary} headingLevel={2} headingRef={resultHeading} />;
  const done = result === 'done';

  return (
    <>
      <SubpageHeader languageSwitch={false} />
      <main id="main" className="bg-paper">
        <div className="mx-auto max-w-xl px-4 py-16 sm:px-6 sm:py-24">
          <h1 className="text-3xl font-extrabold tracking-tight text-balance text-stone-950 sm:text-4xl">
            {messages.meta.leaveTitle}
          </h1>
          {!done && (
            <>
              <p className="mt-6 text-lg text-pretty text-stone-800">
                {fillIn(copy.page.intro, { brand: siteConfig.brandName })}
              </p>
              <p className="mt-3 text-pretty text-stone-700">{copy.page.nothingYet}</p>
            </>
          )}
          {/* Both live regions are always in the page, so a result that appears in one is announced. */}
          <div role="status" className="not-empty:mt-10">
            {summary && !summary.problem && shownSummary}
          </div>
          <div role="alert" className="not-empty:mt-10">
            {summary?.problem && shownSummary}
          </div>
          {!done && (
            <form
              method="post"
              action={LEAVE_PATH}
              onSubmit={handleSubmit}
              aria-busy={sending}
              className="mt-8"
            >
              <input type="hidden" name={LEAVE_TOKEN_FIELD} value={token} />
              <input type="hidden" name="language" value={locale} />
              <button type="submit" disabled={sending} className={primaryButton}>
                {sending && <Spinner className="border-white/60" />}
                {sending ? copy.page.sending : copy.page.button}
              </button>
            </form>
          )}
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
