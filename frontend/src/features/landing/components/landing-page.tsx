import { SiteFooter } from '../../../components/site-footer';
import { useLanguage } from '../../../i18n/language-context';
import { ChatDemo } from '../../demo/components/chat-demo';
import { SignupSection } from '../../waitlist/components/signup-section';
import { FinalCall } from './final-call';
import { Hero } from './hero';
import { HowItWorks } from './how-it-works';
import { TrustedSources } from './trusted-sources';
import { WhatsNext } from './whats-next';
import { WhyMandje } from './why-mandje';

export function LandingPage() {
  const { messages } = useLanguage();
  return (
    <>
      <a
        href="#main"
        className="sr-only rounded-full bg-white px-4 py-2 font-semibold text-brand-900 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50"
      >
        {messages.common.skipToContent}
      </a>
      <Hero />
      <main id="main">
        <HowItWorks />
        <WhyMandje />
        <ChatDemo />
        <TrustedSources />
        <WhatsNext />
        <FinalCall />
        <SignupSection />
      </main>
      <SiteFooter />
    </>
  );
}
