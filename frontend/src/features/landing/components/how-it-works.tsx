import { Icon, type IconName } from '@/components/icons';
import { PageSection } from '@/components/page-section';
import { useLanguage } from '@/i18n/language-context';

const MODES = [
  { key: 'product', icon: 'search' },
  { key: 'basket', icon: 'basket' },
  { key: 'receipt', icon: 'receipt' },
] as const satisfies readonly { key: string; icon: IconName }[];

/**
 * The three modes as a path through a week of shopping (look up one product, compare the basket, check the
 * receipt): numbered markers on one line that runs down on a phone and across from 768 px. The list is
 * ordered, so the numbers are the list's own and hidden from assistive technology.
 */
export function HowItWorks() {
  const { messages } = useLanguage();
  const copy = messages.howItWorks;
  return (
    <PageSection id="how-it-works" title={copy.title} intro={copy.intro}>
      <ol className="mx-auto mt-stack grid max-w-md gap-10 md:max-w-none md:grid-cols-3 md:gap-8">
        {MODES.map(({ key, icon }, index) => (
          <li key={key} className="relative grid grid-cols-[2.75rem_1fr] gap-x-4 md:block">
            {/* The line to the next step: down beside the text on a phone, across to the next marker from 768 px. */}
            {index < MODES.length - 1 && (
              <span
                aria-hidden="true"
                className="absolute top-14 -bottom-8 left-[1.375rem] w-px bg-brand-200 md:top-[1.375rem] md:right-[-2rem] md:bottom-auto md:left-14 md:h-px md:w-auto"
              />
            )}
            <span
              aria-hidden="true"
              className="row-span-2 grid size-11 place-items-center rounded-full bg-brand-700 text-base font-semibold text-white tabular-nums"
            >
              {index + 1}
            </span>
            <h3 className="flex items-center gap-2 text-heading text-stone-950 md:mt-6">
              <Icon name={icon} className="h-5 w-5 shrink-0 text-brand-700" />
              {copy.modes[key].title}
            </h3>
            <p className="mt-2 text-stone-600 md:max-w-xs">{copy.modes[key].body}</p>
          </li>
        ))}
      </ol>
    </PageSection>
  );
}
