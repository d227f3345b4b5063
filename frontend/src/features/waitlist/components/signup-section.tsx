import { useId } from 'react';
import { Icon } from '../../../components/icons';
import { PageSection } from '../../../components/page-section';
import { useLanguage } from '../../../i18n/language-context';
import { SIGNUP_SECTION_ID } from '../go-to-signup';
import { SignupForm } from './signup-form';

export function SignupSection() {
  const { messages } = useLanguage();
  const noteId = useId();
  return (
    <PageSection
      id={SIGNUP_SECTION_ID}
      title={messages.signup.title}
      intro={messages.signup.body}
      className="bg-brand-50"
    >
      <SignupForm noteId={noteId} />
      <p id={noteId} className="mx-auto mt-2 flex max-w-xl items-start gap-2 text-sm text-stone-600">
        <Icon name="bell" className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" />
        {messages.signup.note}
      </p>
    </PageSection>
  );
}
