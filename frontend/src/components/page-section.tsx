import type { ReactNode } from 'react';

/** `split`: the heading (with `aside` under it) in a column beside the content from 1024 px. */
export function PageSection(props: {
  id: string;
  title: string;
  intro?: string;
  layout?: 'centred' | 'split';
  aside?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const { id, intro, aside } = props;
  const heading = (
    <>
      <h2 id={`${id}-title`} className="text-title text-stone-950">
        {props.title}
      </h2>
      {intro && <p className="mt-4 text-lead text-stone-600">{intro}</p>}
    </>
  );
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={props.className ?? ''}>
      <div className="mx-auto max-w-6xl px-4 py-section sm:px-6">
        {props.layout === 'split' ? (
          <div className="grid gap-stack lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:gap-x-16">
            {aside ? (
              <div className="grid max-w-xl grid-cols-[minmax(0,1fr)_auto] items-center gap-x-6 lg:block">
                <div>{heading}</div>
                {aside}
              </div>
            ) : (
              <div className="max-w-xl">{heading}</div>
            )}
            <div className="min-w-0">{props.children}</div>
          </div>
        ) : (
          <>
            <div className="mx-auto max-w-2xl text-center">{heading}</div>
            {props.children}
          </>
        )}
      </div>
    </section>
  );
}
