import { SignupLink } from '../../../components/signup-link';
import { useLanguage } from '../../../i18n/language-context';

export function FinalCall() {
  const { messages } = useLanguage();
  const copy = messages.finalCta;
  return (
    <section aria-labelledby="final-call-title" className="bg-brand-800 text-white">
      <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:px-6 sm:py-20">
        <h2 id="final-call-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
          {copy.title}
        </h2>
        <p className="mt-4 text-lg text-brand-100">{copy.body}</p>
        <SignupLink className="mt-8 inline-flex items-center justify-center rounded-full bg-white px-8 py-4 text-lg font-semibold text-brand-900 transition-colors hover:bg-brand-50 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-white">
          {copy.button}
        </SignupLink>
      </div>
    </section>
  );
}
