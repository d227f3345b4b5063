import { Icon } from '@/components/icons';
import { PageSection } from '@/components/page-section';
import { SUPERMARKETS } from '@/config/supermarkets';
import { useLanguage } from '@/i18n/language-context';

// Names in one style, no imitation of anyone's logo; 2 and 5 columns, so ten names fill their last row.
export function TrustedSources() {
  const copy = useLanguage().messages.sources;
  return (
    <PageSection id="supermarkets" title={copy.title}>
      <ul
        aria-label={copy.listLabel}
        className="mx-auto mt-stack grid max-w-4xl grid-cols-2 gap-3 md:grid-cols-5"
      >
        {SUPERMARKETS.map(({ id, name }) => (
          <li
            key={id}
            className="flex min-h-12 items-center justify-center px-3 text-center text-lg font-semibold text-stone-700"
          >
            {name}
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
