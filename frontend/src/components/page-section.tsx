import type { ReactNode } from 'react';

/** A landing-page section: a landmark named by its own heading. */
export function PageSection({
  id,
  title,
  intro,
  className = '',
  children,
}: {
  id: string;
  title: string;
  intro?: string;
  className?: string;
  children: ReactNode;
}) {
  const titleId = `${id}-title`;
  return (
    <section id={id} aria-labelledby={titleId} className={className}>
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id={titleId} className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            {title}
          </h2>
          {intro && <p className="mt-4 text-lg text-pretty text-stone-600">{intro}</p>}
        </div>
        {children}
      </div>
    </section>
  );
}
