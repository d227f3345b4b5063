import { focusRing } from '../components/control-styles';
import { SiteFooter } from '../components/site-footer';
import { ChatDemo } from '../features/demo/components/chat-demo';
import { DemoStill } from '../features/demo/components/demo-still';
import { FinalCall } from '../features/landing/components/final-call';
import { HERO_TITLE_ID, Hero } from '../features/landing/components/hero';
import { HowItWorks } from '../features/landing/components/how-it-works';
import { TrustedSources } from '../features/landing/components/trusted-sources';
import { WhatsNext } from '../features/landing/components/whats-next';
import { WhyMandje } from '../features/landing/components/why-mandje';
import { SignupSection } from '../features/waitlist/components/signup-section';
import { useLanguage } from '../i18n/language-context';

/** The landing page: the sections of each feature, in the order the product tells its story. */
export function LandingPage() {
  const { messages } = useLanguage();
  return (
    <>
      {/* The hero's heading and button are the page's first content: the link skips only the logo and the
          language switch above them. */}
      <a
        href={`#${HERO_TITLE_ID}`}
        className={`sr-only rounded-full bg-white px-4 py-2 font-semibold text-brand-900 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 ${focusRing}`}
      >
        {messages.common.skipToContent}
      </a>
      <Hero still={<DemoStill />} />
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
