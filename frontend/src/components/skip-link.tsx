import { useLanguage } from '@/i18n/language-context';

export function SkipLink({ target }: { target: string }) {
  const { messages } = useLanguage();
  return (
    <a
      href={`#${target}`}
      className="sr-only bg-brand-900 font-semibold text-white focus:not-sr-only focus:block focus:px-4 focus:py-3 focus:text-center focus-visible:outline-3 focus-visible:-outline-offset-4 focus-visible:outline-white"
    >
      {messages.common.skipToContent}
    </a>
  );
}
