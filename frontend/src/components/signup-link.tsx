import type { ReactNode } from 'react';
import { goToSignup, SIGNUP_SECTION_ID } from './go-to-signup';
import { isPlainClick } from './plain-click';

/** A plain `#signup` anchor without the script; with it a plain click also focuses the field (goToSignup). */
export function SignupLink({ className, children }: { className: string; children: ReactNode }) {
  return (
    <a
      href={`#${SIGNUP_SECTION_ID}`}
      onClick={(event) => {
        if (!isPlainClick(event)) return;
        event.preventDefault();
        if (window.location.hash !== `#${SIGNUP_SECTION_ID}`)
          window.history.pushState(null, '', `#${SIGNUP_SECTION_ID}`);
        goToSignup();
      }}
      className={className}
    >
      {children}
    </a>
  );
}
