/**
 * The page's entry. The text is prerendered and the stylesheet is inlined in the HTML, so the first paint
 * needs no script: the page imports this entry only once its first full frame has painted (an inline line
 * the build writes, frontend/build.ts), and this entry starts the app (React, to make the demo and the form
 * work) and the copy of the page's language. A slow connection spends itself on what the visitor sees first.
 */
import './styles.css';

/**
 * The copy of the page's language, fetched alongside the app rather than after it: the same chunks
 * i18n/lazy-messages.ts loads, named here because the entry must not import the app's modules.
 */
const COPY: Record<string, () => Promise<unknown>> = {
  nl: () => import('./i18n/messages/nl'),
  en: () => import('./i18n/messages/en'),
};

function startApp(): void {
  void COPY[document.documentElement.lang]?.();
  void import('./main');
}

startApp();
