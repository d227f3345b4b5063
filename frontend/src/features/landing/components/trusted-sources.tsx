import { Icon } from '../../../components/icons';
import { PageSection } from '../../../components/page-section';
import { SUPERMARKETS } from '../../../config/supermarkets';
import { useLanguage } from '../../../i18n/language-context';
import { SupermarketWordmark } from './supermarket-wordmarks';

export function TrustedSources() {
  const { messages } = useLanguage();
  const copy = messages.sources;
  return (
    <PageSection id="supermarkets" title={copy.title}>
      <ul aria-label={copy.listLabel} className="mt-12 grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
        {SUPERMARKETS.map(({ id }) => (
          <li key={id} className="rounded-2xl bg-white p-3 shadow-sm ring-1 ring-stone-200">
            <SupermarketWordmark id={id} className="h-auto w-full" />
          </li>
        ))}
      </ul>
      <p className="mt-8 flex items-center justify-center gap-2 text-center text-stone-700">
        <Icon name="clock" className="h-5 w-5 shrink-0 text-brand-700" />
        {copy.note}
      </p>
    </PageSection>
  );
}
