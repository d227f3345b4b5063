import { useId } from 'react';
import { textLink } from '../../../components/control-styles';
import { SIGNUP_SECTION_ID } from '../../../components/go-to-signup';
import { Icon } from '../../../components/icons';
import { PageSection } from '../../../components/page-section';
import { fillIn } from '../../../i18n/fill-in';
import { useLanguage } from '../../../i18n/language-context';
import { PAGE_PATH } from '../../../i18n/page-paths';
import { SignupForm } from './signup-form';

export function SignupSection() {
  const { locale, messages } = useLanguage();
  const copy = messages.signup;
  const noteId = useId();
  return (
    <PageSection id={SIGNUP_SECTION_ID} title={copy.title} intro={copy.body} className="bg-brand-50">
      <SignupForm noteId={noteId} />
      <p id={noteId} className="mx-auto mt-2 flex max-w-xl items-start gap-2 text-sm text-stone-600">
        <Icon name="bell" className="mt-0.5 h-4 w-4 shrink-0 text-brand-700" />
        {copy.note}
      </p>
      {/* With the note above, the text a visitor agrees to by signing up: SIGNUP_NOTE_VERSION names it. */}
      <p className="mx-auto mt-1 max-w-xl pl-6 text-sm text-stone-600">
        {fillIn(copy.privacySentence, {
          link: (
            <a href={PAGE_PATH.privacy[locale]} className={textLink}>
              {copy.privacyLink}
            </a>
          ),
        })}
      </p>
    </PageSection>
  );
}
