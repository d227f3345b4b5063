/**
 * The page's entry. The text is prerendered and the stylesheet is linked in the HTML, so the first paint
 * needs no script: the app (React, to make the demo and the form work) is asked for only once that paint
 * is done, and a slow connection spends itself on what the visitor sees first.
 */
import './styles.css';

const startApp = () => void import('./main');

// A frame callback runs just before a paint; a task queued from it runs after. Hidden tabs paint no
// frames, so there the app starts at once.
if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(startApp));
else startApp();
