import { Icon, type IconName } from '@/components/icons';
import { Mascot } from '@/components/mascot';
import { PageSection } from '@/components/page-section';
import { useLanguage } from '@/i18n/language-context';

const FEATURES = [
  { key: 'location', icon: 'pin' },
  { key: 'personal', icon: 'sparkle' },
  { key: 'notifications', icon: 'bell' },
  { key: 'seasonal', icon: 'leaf' },
] as const satisfies readonly { key: string; icon: IconName }[];

export function WhatsNext() {
  const { messages } = useLanguage();
  const copy = messages.next;
  return (
    <PageSection
      id="whats-next"
      title={copy.title}
      intro={copy.intro}
      layout="split"
      aside={<Mascot label={copy.mascotLabel} className="h-auto w-24 sm:w-32 lg:mt-10 lg:w-52" />}
      className="bg-white"
    >
      <p className="inline-flex items-center gap-2 rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900">
        <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
        {messages.common.comingSoon}
      </p>
      <ul className="mt-6">
        {FEATURES.map(({ key, icon }, index) => (
          <li key={key} className="relative grid grid-cols-[2.5rem_1fr] gap-x-4 pb-8 last:pb-0">
            {index < FEATURES.length - 1 && (
              <span
                aria-hidden="true"
                className="absolute top-12 bottom-2 left-5 border-l-2 border-dashed border-stone-300"
              />
            )}
            <span className="row-span-2 grid size-10 place-items-center rounded-full bg-paper text-brand-800 ring-1 ring-stone-200">
              <Icon name={icon} className="h-5 w-5" />
            </span>
            <h3 className="pt-2 text-heading text-stone-950">{copy.features[key].title}</h3>
            <p className="mt-1 text-stone-600">{copy.features[key].body}</p>
          </li>
        ))}
      </ul>
    </PageSection>
  );
}
