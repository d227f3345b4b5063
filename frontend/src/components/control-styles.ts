// 2 px clear of the control, so it keeps 3:1 against the control and every background it sits on.
export const focusRing =
  'focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-700';

const base = `inline-flex items-center justify-center gap-2 rounded-full font-semibold transition-colors ${focusRing} disabled:cursor-not-allowed disabled:opacity-60`;

export const primaryButton = `${base} bg-brand-700 px-6 py-3 text-white hover:bg-brand-800`;

export const joinButton = `${primaryButton} px-8 py-4 text-lg whitespace-nowrap`;

export const secondaryButton = `${base} border border-stone-300 bg-white px-5 py-2.5 text-stone-900 hover:bg-stone-100`;

export const iconButton = `inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full transition-colors ${focusRing}`;

export const textInput = `min-h-11 w-full min-w-0 flex-1 rounded-full border border-stone-300 bg-white px-4 text-base text-stone-900 placeholder:text-stone-500 focus:border-brand-700 ${focusRing} aria-invalid:border-red-700`;

/** Underlined, so links are not told apart by colour alone. */
export const textLink = `rounded-sm font-semibold text-brand-800 underline underline-offset-4 hover:text-brand-900 ${focusRing}`;
