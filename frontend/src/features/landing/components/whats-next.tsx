import { Icon, type IconName } from '../../../components/icons';
import { PageSection } from '../../../components/page-section';
import { useLanguage } from '../../../i18n/language-context';
import { Mascot } from './mascot';

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
    <PageSection id="whats-next" title={copy.title} intro={copy.intro} className="bg-white">
      <div className="mt-12 grid items-center gap-10 lg:grid-cols-[1fr_18rem]">
        <ul className="grid gap-4 sm:grid-cols-2">
          {FEATURES.map(({ key, icon }) => (
            <li key={key} className="rounded-3xl bg-paper p-6 ring-1 ring-stone-200">
              <div className="flex items-center justify-between gap-3">
                <span className="inline-flex h-11 w-11 items-center justify-center rounded-2xl bg-brand-100 text-brand-800">
                  <Icon name={icon} className="h-6 w-6" />
                </span>
                <span className="rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-900">
                  {messages.common.comingSoon}
                </span>
              </div>
              <h3 className="mt-4 text-lg font-bold">{copy.features[key].title}</h3>
              <p className="mt-1 text-stone-600">{copy.features[key].body}</p>
            </li>
          ))}
        </ul>
        <Mascot label={copy.mascotLabel} className="mx-auto h-auto w-56 lg:w-full" />
      </div>
    </PageSection>
  );
}
