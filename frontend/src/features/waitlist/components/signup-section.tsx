import { SIGNUP_SECTION_ID } from '@/components/go-to-signup';
import { PageSection } from '@/components/page-section';
import { useLanguage } from '@/i18n/language-context';
import { SignupForm } from './signup-form';

export function SignupSection() {
  const { messages } = useLanguage();
  const copy = messages.signup;
  return (
    <PageSection id={SIGNUP_SECTION_ID} title={copy.title} intro={copy.body} className="bg-brand-50">
      <SignupForm />
    </PageSection>
  );
}
