import type { MouseEventHandler, ReactNode, Ref } from 'react';
import { useLanguage } from '@/i18n/language-context';
import { PAGE_PATH } from '@/i18n/page-paths';
import { BrandLogo, Mascot } from './brand-logo';
import { primaryButton } from './control-styles';
import { Icon, type IconName } from './icons';
import { LanguageSwitch } from './language-switch';
import { SiteFooter } from './site-footer';

export interface ResultSummaryProps {
  title: string;
  problem: boolean;
  /** Over the heading when nothing went wrong; a check mark unless given. */
  icon?: IconName;
  /** The mascot instead of the icon, to mark a moment (a signup confirmed). */
  mascot?: boolean;
  notice: { title?: string; body: ReactNode };
  next: ReactNode;
  action?: { href: string; label: string; onClick?: MouseEventHandler<HTMLAnchorElement> };
}

/** `headingLevel` 1 where the result is the page, 2 under a page's heading; `headingRef` to move the focus. */
export function ResultSummary({
  headingLevel = 1,
  headingRef,
  ...props
}: ResultSummaryProps & { headingLevel?: 1 | 2; headingRef?: Ref<HTMLHeadingElement> }) {
  const { problem, notice, action } = props;
  const Heading = `h${headingLevel}` as const;
  return (
    <>
      {props.mascot ? (
        <Mascot label="" eager className="h-auto w-28" />
      ) : (
        <span
          className={`inline-flex h-12 w-12 items-center justify-center rounded-full ${problem ? 'bg-red-100 text-red-700' : 'bg-brand-100 text-brand-800'}`}
        >
          <Icon name={problem ? 'alert' : (props.icon ?? 'check')} />
        </span>
      )}
      <Heading
        ref={headingRef}
        tabIndex={headingRef ? -1 : undefined}
        className={`mt-6 font-extrabold tracking-tight text-balance text-stone-950 focus:outline-none ${headingLevel === 1 ? 'text-3xl sm:text-4xl' : 'text-2xl sm:text-3xl'}`}
      >
        {props.title}
      </Heading>
      <div
        className={`mt-6 rounded-2xl p-4 ring-1 ${problem ? 'bg-red-50 text-red-900 ring-red-200' : 'bg-white text-stone-900 ring-stone-200'}`}
      >
        {notice.title && <p className="font-bold">{notice.title}</p>}
        <p className={notice.title ? 'mt-0.5' : 'font-semibold'}>{notice.body}</p>
      </div>
      <p className="mt-4 text-pretty text-stone-700">{props.next}</p>
      {action && (
        <p className="mt-8">
          <a href={action.href} onClick={action.onClick} className={primaryButton}>
            {action.label}
          </a>
        </p>
      )}
    </>
  );
}

export function ResultPage(props: ResultSummaryProps) {
  return (
    <PageFrame small>
      <ResultSummary {...props} />
    </PageFrame>
  );
}

export function SkipLink({ target }: { target: string }) {
  const { messages } = useLanguage();
  return (
    <a
      href={`#${target}`}
      className="sr-only bg-brand-900 font-semibold text-white focus:not-sr-only focus:block focus:px-4 focus:py-3 focus:text-center focus-visible:outline-3 focus-visible:-outline-offset-4 focus-visible:outline-white"
    >
      {messages.common.skipToContent}
    </a>
  );
}

/** A page but the landing page: the logo home, the language switch, `children` as its <main>, the footer;
 * `small`: one short message (a result, a page a mail's link opens). */
export function PageFrame(props: { languageSwitch?: boolean; small?: boolean; children: ReactNode }) {
  const { locale } = useLanguage();
  return (
    <>
      <SkipLink target="main" />
      <header className="bg-linear-to-b from-brand-100 to-brand-50">
        <div className="mx-auto flex min-h-20 max-w-6xl items-center justify-between gap-4 px-4 py-4 sm:px-6">
          <a
            href={PAGE_PATH.home[locale]}
            className="rounded-lg text-brand-900 focus-visible:outline-3 focus-visible:outline-offset-4 focus-visible:outline-brand-700"
          >
            <BrandLogo />
          </a>
          {props.languageSwitch !== false && <LanguageSwitch />}
        </div>
      </header>
      <main id="main" className="bg-paper">
        {props.small ? (
          <div className="mx-auto max-w-xl px-4 py-16 sm:px-6 sm:py-24">{props.children}</div>
        ) : (
          props.children
        )}
      </main>
      <SiteFooter />
    </>
  );
}
