import type { MouseEventHandler, ReactNode, Ref } from 'react';
import { primaryButton } from './control-styles';
import { Icon, type IconName } from './icons';
import { Mascot } from './mascot';
import { SiteFooter } from './site-footer';
import { SubpageHeader } from './subpage-header';

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
export function ResultSummary(
  props: ResultSummaryProps & { headingLevel?: 1 | 2; headingRef?: Ref<HTMLHeadingElement> },
) {
  const { problem, notice, action, headingLevel = 1, headingRef } = props;
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <>
      {props.mascot ? (
        <Mascot label="" eager className="h-auto w-28" />
      ) : (
        <span
          className={`inline-flex h-12 w-12 items-center justify-center rounded-full ${
            problem ? 'bg-red-100 text-red-700' : 'bg-brand-100 text-brand-800'
          }`}
        >
          <Icon name={problem ? 'alert' : (props.icon ?? 'check')} />
        </span>
      )}
      <Heading
        ref={headingRef}
        tabIndex={headingRef ? -1 : undefined}
        className={`mt-6 font-extrabold tracking-tight text-balance text-stone-950 focus:outline-none ${
          headingLevel === 1 ? 'text-3xl sm:text-4xl' : 'text-2xl sm:text-3xl'
        }`}
      >
        {props.title}
      </Heading>
      <div
        className={`mt-6 rounded-2xl p-4 ring-1 ${
          problem ? 'bg-red-50 text-red-900 ring-red-200' : 'bg-white text-stone-900 ring-stone-200'
        }`}
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
    <SmallPage>
      <ResultSummary {...props} />
    </SmallPage>
  );
}

/** The frame of a page with one short message: a result, or a page a mail's link opens. */
export function SmallPage({ languageSwitch, children }: { languageSwitch?: boolean; children: ReactNode }) {
  return (
    <>
      <SubpageHeader languageSwitch={languageSwitch} />
      <main id="main" className="bg-paper">
        <div className="mx-auto max-w-xl px-4 py-16 sm:px-6 sm:py-24">{children}</div>
      </main>
      <SiteFooter />
    </>
  );
}
