import { SkipLink } from '@/components/page-frame';
import { SiteFooter } from '@/components/site-footer';
import { ChatDemo } from '@/features/demo/components/chat-demo';
import { DemoStill } from '@/features/demo/components/product-answer';
import * as sections from '@/features/landing/components/sections';
import { SignupSection } from '@/features/waitlist/components/signup-form';

export function LandingPage() {
  return (
    <>
      {/* The hero's heading is the first content: the link skips only the logo and the language switch. */}
      <SkipLink target={sections.HERO_TITLE_ID} />
      <sections.Hero still={<DemoStill />} />
      <main id="main">
        <sections.HowItWorks />
        <sections.WhyMandje />
        <ChatDemo />
        <sections.TrustedSources />
        <sections.WhatsNext />
        <sections.FinalCall />
        <SignupSection />
      </main>
      <SiteFooter />
    </>
  );
}
