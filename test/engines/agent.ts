/**
 * What the journeys ask of a page, run inside it, the same in every engine: elements found by role and
 * accessible name (dom-accessibility-api, as Testing Library finds them) or by their text, and how they
 * look. Bundled by visitor.ts into one script, run before each page's own scripts (where they run) and
 * sent along with each call, installed once per document as `__journeyAgent`. Before the page's scripts it
 * also marks when the page becomes interactive and records what it logs as an error (WebKit's driver cannot
 * read the console).
 */
import { computeAccessibleName, getRole, isInaccessible } from 'dom-accessibility-api';
import { inkContrast, isInteractive, markWhenInteractive } from '../e2e/in-page';

/** A string (exact, or contained for a text step; whitespace collapsed) or a regular expression's source. */
export type TextMatch = string | { pattern: string; flags?: string };

/** One step of a query: by role (and name, and a heading's level), or the innermost element holding a text. */
export type Step = { role: string; name?: TextMatch; level?: number } | { text: TextMatch };

/** How the first element a query finds looks (count says how many it finds). */
export interface Snapshot {
  count: number;
  visible: boolean;
  text: string;
  value: string | null;
  focused: boolean;
  disabled: boolean;
  attributes: Record<string, string>;
  box: { top: number; bottom: number; left: number; right: number } | null;
  scrollMarginTop: number;
}

export interface PageFacts {
  url: string;
  scrollY: number;
  maxScrollY: number;
  innerHeight: number;
  /** How far down the viewport is covered by fixed or sticky elements (a sticky header). */
  coveredTop: number;
  interactive: boolean;
  /** What the page wrote with console.error, and the errors it did not catch. */
  errors: string[];
  language: string;
  title: string;
  dark: boolean;
}

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
  const box = element.getBoundingClientRect();
  return (
    (box.width > 0 || box.height > 0) &&
    element.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true })
  );
}

const isDisabled = (element: Element) =>
  ('disabled' in element && element.disabled === true) || element.getAttribute('aria-disabled') === 'true';

function inspect(steps: Step[]): Snapshot {
  const found = resolve(steps);
  const [element] = found;
  const { top, bottom, left, right } = element?.getBoundingClientRect() ?? {};
  return {
    count: found.length,
    visible: !!element && isVisible(element),
    text: collapse(element?.textContent ?? ''),
    value: element && 'value' in element && typeof element.value === 'string' ? element.value : null,
    focused: !!element && document.activeElement === element,
    disabled: !!element && isDisabled(element),
    attributes: Object.fromEntries([...(element?.attributes ?? [])].map(({ name, value }) => [name, value])),
    box: element ? ({ top, bottom, left, right } as Snapshot['box']) : null,
    scrollMarginTop: element ? Number.parseFloat(getComputedStyle(element).scrollMarginTop) || 0 : 0,
  };
}

function coveredTop(): number {
  let covered = 0;
  for (const element of document.body.querySelectorAll('*')) {
    if (!['fixed', 'sticky'].includes(getComputedStyle(element).position)) continue;
    const box = element.getBoundingClientRect();
    if (box.top <= 1 && box.bottom > 0 && isVisible(element)) covered = Math.max(covered, box.bottom);
  }
  return covered;
}

/**
 * Brings the one element a query finds into view at once (the page's smooth scrolling is for people) and
 * says where a pointer would click it: the middle of its part in view, if that is it and not something over it.
 */
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

/**
 * Resolves a few frames later, once the page has laid out again after a scroll: in WebKit, which does not
 * anchor the scroll, a late layout moves what is below. Only where the page runs scripts: without,
 * Chromium gives no frames.
 */
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

const state = window as unknown as { __journeyErrors?: string[]; __journeyDocument?: boolean };

const page = (): PageFacts => ({
  url: location.href,
  scrollY,
  maxScrollY: document.documentElement.scrollHeight - innerHeight,
  innerHeight,
  coveredTop: coveredTop(),
  interactive: isInteractive(),
  errors: state.__journeyErrors ?? [],
  language: document.documentElement.lang,
  title: document.title,
  dark: matchMedia('(prefers-color-scheme: dark)').matches,
});

/** A mark that lives as long as this document: a navigation to another one loses it. */
const markDocument = () => {
  state.__journeyDocument = true;
};
const isMarkedDocument = () => state.__journeyDocument === true;

const agent = {
  inspect,
  clickPoint,
  afterFrames,
  selectText,
  page,
  markDocument,
  isMarkedDocument,
  inkContrast,
};
export type JourneyAgent = typeof agent;

if (!state.__journeyErrors) {
  const errors: string[] = [];
  state.__journeyErrors = errors;
  const logError = console.error.bind(console);
  console.error = (...parts: unknown[]) => {
    errors.push(parts.map(String).join(' '));
    logError(...parts);
  };
  addEventListener('error', (event) => errors.push(`uncaught: ${event.message}`));
  addEventListener('unhandledrejection', (event) => errors.push(`unhandled: ${String(event.reason)}`));
  markWhenInteractive();
}
(globalThis as unknown as { __journeyAgent: JourneyAgent }).__journeyAgent = agent;
