// What the journeys ask of a page, run inside it in every engine: elements found by role and accessible name
// (dom-accessibility-api, as Testing Library finds them) or by their text, and how they look. Bundled by
// visitor.ts, installed once per document as `__journeyAgent`, before the page's scripts where they run.
import { computeAccessibleName, getRole, isInaccessible } from 'dom-accessibility-api';
import { inkContrast, isInteractive, markWhenInteractive } from '../e2e/in-page';

/** A string (exact, or contained for a text step; whitespace collapsed) or a regular expression's source. */
export type TextMatch = string | { pattern: string; flags?: string };

/** One step of a query: by role (and name, and a heading's level), or the innermost element holding a text. */
export type Step = { role: string; name?: TextMatch; level?: number } | { text: TextMatch };

/** Where a pointer clicks the one element a query finds (and whether it was scrolled there), or why not yet. */
export type ClickPoint = { x: number; y: number; scrolled: boolean } | { notYet: string };

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

function matches(value: string, match: TextMatch, exactly: boolean): boolean {
  const text = collapse(value);
  if (typeof match !== 'string') return new RegExp(match.pattern, match.flags).test(text);
  return exactly ? text === collapse(match) : text.includes(collapse(match));
}

const levelOf = (element: Element) =>
  Number(element.getAttribute('aria-level') ?? /^h([1-6])$/.exec(element.localName)?.[1]);

function findIn(scope: ParentNode, step: Step): Element[] {
  const candidates = [...scope.querySelectorAll('body *')].filter(
    (element) => !['script', 'style', 'template'].includes(element.localName),
  );
  let found: Element[];
  if ('text' in step) {
    found = candidates.filter((element) => matches(element.textContent ?? '', step.text, false));
    found = found.filter((element) => !found.some((other) => other !== element && element.contains(other)));
  } else
    found = candidates.filter(
      (element) =>
        getRole(element) === step.role &&
        (step.level === undefined || levelOf(element) === step.level) &&
        (step.name === undefined || matches(computeAccessibleName(element), step.name, true)),
    );
  return found.filter((element) => !isInaccessible(element));
}

function resolve(steps: Step[]): Element[] {
  let found: Element[] = [document.documentElement];
  for (const step of steps) found = [...new Set(found.flatMap((scope) => findIn(scope, step)))];
  return found;
}

function isVisible(element: Element): boolean {
  const { width, height } = element.getBoundingClientRect();
  return (
    (width > 0 || height > 0) &&
    element.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true })
  );
}

const isDisabled = (element: Element) =>
  ('disabled' in element && element.disabled === true) || element.getAttribute('aria-disabled') === 'true';

/** How the first element a query finds looks (count says how many it finds). */
function inspect(steps: Step[]) {
  const found = resolve(steps);
  const [element] = found;
  const box = element?.getBoundingClientRect();
  return {
    count: found.length,
    visible: !!element && isVisible(element),
    text: collapse(element?.textContent ?? ''),
    value: element && 'value' in element && typeof element.value === 'string' ? element.value : null,
    focused: !!element && document.activeElement === element,
    disabled: !!element && isDisabled(element),
    attributes: Object.fromEntries([...(element?.attributes ?? [])].map(({ name, value }) => [name, value])),
    box: box ? { top: box.top, bottom: box.bottom, left: box.left, right: box.right } : null,
    scrollMarginTop: element ? Number.parseFloat(getComputedStyle(element).scrollMarginTop) || 0 : 0,
  };
}

/** How far down the viewport is covered by fixed or sticky elements (a sticky header). */
function coveredTop(): number {
  let covered = 0;
  for (const element of document.body.querySelectorAll('*')) {
    if (!['fixed', 'sticky'].includes(getComputedStyle(element).position)) continue;
    const box = element.getBoundingClientRect();
    if (box.top <= 1 && box.bottom > 0 && isVisible(element)) covered = Math.max(covered, box.bottom);
  }
  return covered;
}

// Brings the one element found into view at once (smooth scrolling is for people) and says where a pointer
// clicks it: the middle of its part in view, if nothing is over it.
function clickPoint(steps: Step[], needsScript: boolean): ClickPoint {
  if (needsScript && !isInteractive()) return { notYet: 'the page is not interactive yet' };
  const found = resolve(steps);
  const [element] = found;
  if (found.length !== 1 || !element) return { notYet: `${found.length} elements match` };
  if (!isVisible(element)) return { notYet: 'it is not visible' };
  if (isDisabled(element)) return { notYet: 'it is disabled' };
  const covered = coveredTop();
  let box = element.getBoundingClientRect();
  const scrolled = box.top < covered || box.bottom > innerHeight || box.left < 0 || box.right > innerWidth;
  if (scrolled) {
    element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    box = element.getBoundingClientRect();
  }
  const x = Math.round((Math.max(box.left, 0) + Math.min(box.right, innerWidth)) / 2);
  const y = Math.round((Math.max(box.top, covered) + Math.min(box.bottom, innerHeight)) / 2);
  const hit = document.elementFromPoint(x, y);
  if (!hit || !element.contains(hit))
    return { notYet: `<${hit?.localName}> ${collapse(hit?.textContent ?? '').slice(0, 60)} is over it` };
  return { x, y, scrolled };
}

// A few frames later, laid out again after a scroll (WebKit does not anchor it); only with the page's
// scripts: without, Chromium gives no frames.
const afterFrames = () =>
  new Promise<void>((done) => {
    let frames = 3;
    const next = () => (--frames === 0 ? done() : requestAnimationFrame(next));
    requestAnimationFrame(next);
  });

/** Selects a field's text, so that what is typed next replaces it. */
function selectText(steps: Step[]): void {
  const [element] = resolve(steps);
  if (element instanceof HTMLInputElement) element.select();
}

const state = window as unknown as { __journeyAgent?: JourneyAgent; __journeyDocument?: boolean };

const page = () => ({
  url: location.href,
  scrollY,
  maxScrollY: document.documentElement.scrollHeight - innerHeight,
  innerHeight,
  coveredTop: coveredTop(),
  interactive: isInteractive(),
  language: document.documentElement.lang,
  title: document.title,
  dark: matchMedia('(prefers-color-scheme: dark)').matches,
});

const agent = {
  inspect,
  clickPoint,
  afterFrames,
  selectText,
  page,
  inkContrast,
  /** A mark that lives as long as this document: a navigation to another one loses it. */
  markDocument() {
    state.__journeyDocument = true;
  },
  isMarkedDocument: () => state.__journeyDocument === true,
};
export type JourneyAgent = typeof agent;
export type Snapshot = ReturnType<typeof inspect>;
export type PageFacts = ReturnType<typeof page>;

if (!state.__journeyAgent) markWhenInteractive();
state.__journeyAgent = agent;
