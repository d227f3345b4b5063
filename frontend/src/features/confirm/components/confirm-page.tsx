import { type FormEvent, useEffect, useRef, useState } from 'react';
import {
  CONFIRM_PATH,
  type ConfirmRequest,
  type ConfirmResultPage,
  TOKEN_FIELD,
  TOKEN_PARAMETER,
  TOKEN_PLACEHOLDER,
} from '#contract/confirmation';
import { primaryButton, textLink } from '@/components/control-styles';
import { Mascot } from '@/components/mascot';
import { ResultSummary } from '@/components/result-summary';
import { SiteFooter } from '@/components/site-footer';
import { Spinner } from '@/components/spinner';
import { SubpageHeader } from '@/components/subpage-header';
import { siteConfig } from '@/config/site';
import { confirmCopy } from '@/features/confirm/copy/confirm-copy';
import { requestToConfirm } from '@/features/confirm/request-to-confirm';
import { fillIn } from '@/i18n/fill-in';
import { useLanguage } from '@/i18n/language-context';
import { pageMetadata } from '@/i18n/page-metadata';
import { confirmResultPage, PAGE_PATH } from '@/i18n/page-paths';
import { confirmResultSummary } from './confirm-result';

/**
 * The token of the link that opened the page, for the script to send: in the page's form, where the API
 * put it when it served the page; from the link itself where nobody did (the dev server, which leaves the
 * placeholder or has no prerendered page).
 */
export function tokenOfPage(root: ParentNode, search: string): string {
  const field = root.querySelector<HTMLInputElement>(`input[name="${TOKEN_FIELD}"]`);
  if (field && field.value !== TOKEN_PLACEHOLDER) return field.value;
  return new URLSearchParams(search).get(TOKEN_PARAMETER) ?? '';
}

/** Takes the token out of the address bar, so it stays out of the history, bookmarks and shared links. */
function removeTokenFromAddress(): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(TOKEN_PARAMETER)) return;
  url.searchParams.delete(TOKEN_PARAMETER);
  window.history.replaceState(window.history.state, '', url);
}

/**
 * The page the link in a confirmation mail opens (served by the API, #contract/confirmation). Opening it
 * confirms nothing, since mail scanners open links too; pressing its one button does. Like the waitlist
 * form, in two steps:
 * - As prerendered, before or without the script, the button posts a plain form with the token and the
 *   page's language, and the API answers with a redirect to a result page.
 * - Once the script runs, the page sends the token with fetch and shows the result in place, announced,
 *   with the focus on it. A final result replaces the button; after a fault the button stays, to try again.
 * The page never shows an address, so it tells nobody whether one is on the list.
 */
export function ConfirmPage({ token }: { token: string }) {
  const { locale, messages } = useLanguage();
  const copy = confirmCopy[locale];
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<ConfirmResultPage | null>(null);
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
    const outcome = await requestToConfirm(token);
    setSending(false);
    setResult(outcome);
  };

  const summary = result && confirmResultSummary(result, { locale, messages, shown: 'in-place' });
  // A final result takes the page's place, heading and all: the page is then what happened, not the
  // request it was. After a fault the page and its button stay, with the result under its heading.
  const settled = result !== null && result !== 'try-again';
  const shownSummary = summary && (
    <ResultSummary {...summary} headingLevel={settled ? 1 : 2} headingRef={resultHeading} />
  );
  useEffect(() => {
    if (result && settled)
      document.title = pageMetadata(confirmResultPage(result), locale, messages.meta).title;
  }, [result, settled, locale, messages]);

  return (
    <>
      <SubpageHeader languageSwitch={false} />
      <main id="main" className="bg-paper">
        <div className="mx-auto max-w-xl px-4 py-16 sm:px-6 sm:py-24">
          {!settled && (
            <>
              <Mascot label="" eager className="h-auto w-20" />
              <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-balance text-stone-950 sm:text-4xl">
                {messages.meta.confirmTitle}
              </h1>
              <p className="mt-6 text-lg text-pretty text-stone-800">
                {fillIn(copy.page.intro, { brand: siteConfig.brandName })}
              </p>
              <p className="mt-3 text-pretty text-stone-700">
                {fillIn(copy.page.kept, {
                  link: (
                    <a href={PAGE_PATH.privacy[locale]} className={textLink}>
                      {copy.page.privacyLink}
                    </a>
                  ),
                })}
              </p>
            </>
          )}
          {/* Both live regions are always in the page, so a result that appears in one is announced. */}
          <div role="status" className={settled ? '' : 'not-empty:mt-10'}>
            {summary && !summary.problem && shownSummary}
          </div>
          <div role="alert" className={settled ? '' : 'not-empty:mt-10'}>
            {summary?.problem && shownSummary}
          </div>
          {!settled && (
            <form
              method="post"
              action={CONFIRM_PATH}
              onSubmit={handleSubmit}
              aria-busy={sending}
              className="mt-8"
            >
              <input type="hidden" name={TOKEN_FIELD} value={token} />
              <input type="hidden" name={'language' satisfies keyof ConfirmRequest} value={locale} />
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
