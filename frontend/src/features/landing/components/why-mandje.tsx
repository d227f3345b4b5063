import { Icon, type IconName } from '../../../components/icons';
import { PageSection } from '../../../components/page-section';
import { savingsClaims } from '../../../config/savings-claims';
import { fillIn } from '../../../i18n/fill-in';
import { useLanguage } from '../../../i18n/language-context';

const POINTS = [
  { key: 'money', icon: 'coins' },
  { key: 'time', icon: 'clock' },
  { key: 'oneTrip', icon: 'route' },
] as const satisfies readonly { key: string; icon: IconName }[];

export function WhyMandje() {
  const { messages, format } = useLanguage();
  const claims = savingsClaims(format);
  const copy = messages.why;
  return (
    <PageSection id="why" title={copy.title} className="bg-white">
      <ul className="mt-12 grid gap-10 md:grid-cols-3">
        {POINTS.map(({ key, icon }) => (
          <li key={key} className="text-center">
            <span className="mx-auto inline-flex h-14 w-14 items-center justify-center rounded-full bg-brand-700 text-white">
              <Icon name={icon} className="h-7 w-7" />
            </span>
            <h3 className="mt-5 text-xl font-bold">{copy.points[key].title}</h3>
            <p className="mx-auto mt-2 max-w-xs text-stone-600">{fillIn(copy.points[key].body, claims)}</p>
          </li>
        ))}
      </ul>
    </PageSection>
  );
}
