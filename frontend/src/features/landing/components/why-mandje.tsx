import { PageSection } from '@/components/page-section';
import { savingsClaims } from '@/config/savings-claims';
import { fillIn } from '@/i18n/fill-in';
import { useLanguage } from '@/i18n/language-context';

const POINTS = ['money', 'time', 'oneTrip'] as const;

export function WhyMandje() {
  const { messages, format } = useLanguage();
  const claims = savingsClaims(format);
  const copy = messages.why;
  return (
    <PageSection id="why" title={copy.title} layout="split" className="bg-white">
      <ul className="divide-y divide-stone-200 border-y border-stone-200">
        {POINTS.map((key) => (
          <li key={key} className="py-6 sm:grid sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] sm:gap-8 sm:py-8">
            <h3 className="text-heading text-stone-950">{copy.points[key].title}</h3>
            <p className="mt-2 text-stone-600 sm:mt-0">{fillIn(copy.points[key].body, claims)}</p>
          </li>
        ))}
      </ul>
    </PageSection>
  );
}
