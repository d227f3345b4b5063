import { Icon, type IconName } from '@/components/icons';
import { PageSection } from '@/components/page-section';
import { useLanguage } from '@/i18n/language-context';

const MODES = [
  { key: 'product', icon: 'search' },
  { key: 'basket', icon: 'basket' },
  { key: 'receipt', icon: 'receipt' },
] as const satisfies readonly { key: string; icon: IconName }[];

// Three ways in, not steps in an order: an unordered list, led by icons rather than numbers.
export function HowItWorks() {
  const copy = useLanguage().messages.howItWorks;
  return (
    <PageSection id="how-it-works" title={copy.title} intro={copy.intro}>
      <ul className="mx-auto mt-stack grid max-w-md gap-4 md:max-w-none md:grid-cols-3 md:gap-6">
        {MODES.map(({ key, icon }) => (
          <li key={key} className="rounded-2xl bg-white p-6 ring-1 ring-stone-200">
            <span
              aria-hidden="true"
              className="grid size-11 place-items-center rounded-full bg-brand-100 text-brand-700"
            >
              <Icon name={icon} className="h-5 w-5" />
            </span>
            <h3 className="mt-4 text-heading text-stone-950">{copy.modes[key].title}</h3>
            <p className="mt-2 text-stone-600">{copy.modes[key].body}</p>
          </li>
        ))}
      </ul>
    </PageSection>
  );
}
