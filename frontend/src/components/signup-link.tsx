import type { MouseEvent, ReactNode } from 'react';
import { goToSignup, SIGNUP_SECTION_ID } from './go-to-signup';

/** A plain `#signup` anchor without the script; with it a plain click also focuses the field (goToSignup). */
export function SignupLink({ className, children }: { className: string; children: ReactNode }) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    if (window.location.hash !== `#${SIGNUP_SECTION_ID}`)
      window.history.pushState(null, '', `#${SIGNUP_SECTION_ID}`);
    goToSignup();
  };
  return (
    <a href={`#${SIGNUP_SECTION_ID}`} onClick={handleClick} className={className}>
      {children}
    </a>
  );
}
