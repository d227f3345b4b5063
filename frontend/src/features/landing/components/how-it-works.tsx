import { Icon, type IconName } from '../../../components/icons';
import { PageSection } from '../../../components/page-section';
import { useLanguage } from '../../../i18n/language-context';

const MODES = [
  { key: 'product', icon: 'search' },
  { key: 'basket', icon: 'basket' },
  { key: 'receipt', icon: 'receipt' },
] as const satisfies readonly { key: string; icon: IconName }[];

export function HowItWorks() {
  const { messages } = useLanguage();
  const copy = messages.howItWorks;
  return (
    <PageSection id="how-it-works" title={copy.title} intro={copy.intro}>
      <ol className="mt-12 grid gap-6 md:grid-cols-3">
        {MODES.map(({ key, icon }, index) => (
          <li key={key} className="relative rounded-3xl bg-white p-6 shadow-sm ring-1 ring-stone-200">
            <div className="flex items-center gap-3">
              <span className="inline-flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-100 text-brand-800">
                <Icon name={icon} className="h-6 w-6" />
              </span>
              <span aria-hidden="true" className="text-sm font-bold text-stone-400">
                {index + 1}
              </span>
            </div>
            <h3 className="mt-5 text-xl font-bold">{copy.modes[key].title}</h3>
            <p className="mt-2 text-stone-600">{copy.modes[key].body}</p>
          </li>
        ))}
      </ol>
    </PageSection>
  );
}
