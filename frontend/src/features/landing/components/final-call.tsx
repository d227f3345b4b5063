import { joinButton } from '@/components/control-styles';
import { Icon } from '@/components/icons';
import { SignupLink } from '@/components/signup-link';
import { useLanguage } from '@/i18n/language-context';

export function FinalCall() {
  const copy = useLanguage().messages.finalCta;
  return (
    <section aria-labelledby="final-call-title" className="bg-white">
      <div className="mx-auto max-w-6xl px-4 pb-section sm:px-6">
        <div className="flex flex-col gap-6 border-t border-stone-200 pt-10 md:flex-row md:items-end md:justify-between md:gap-12">
          <div className="max-w-2xl">
            <h2 id="final-call-title" className="text-subtitle text-stone-950">
              {copy.title}
            </h2>
            <p className="mt-2 text-lead text-stone-600">{copy.body}</p>
          </div>
          <SignupLink className={`${joinButton} shrink-0 self-start md:self-auto`}>
            {copy.button}
            <Icon name="arrowDown" className="h-4 w-4" />
          </SignupLink>
        </div>
      </div>
    </section>
  );
}
