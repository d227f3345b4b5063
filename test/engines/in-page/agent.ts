/**
 * What the journeys ask of a page, run inside it, the same in every engine: find elements by role and
 * accessible name or by their text, as a person (and a screen reader) would, and tell what they look like.
 * Roles and names come from dom-accessibility-api, the implementation Testing Library uses, so one
 * reading of the page serves all three engines. Bundled into one script (agent-source.ts) that a driver
 * sends with each call; it installs itself once per document as `__journeyAgent`.
 */
import { computeAccessibleName, getRole, isInaccessible } from 'dom-accessibility-api';

/** Text to match: a string (whitespace collapsed, as a reader sees it), or a regular expression's source. */
export type TextMatch = string | { pattern: string; flags?: string };

/**
 * One step of a query: by role (and exact accessible name, and a heading's level), or by the text it holds
 * (a screen reader's hidden words around it included: "You: …" in a chat bubble).
 */
export type Step = { role: string; name?: TextMatch; level?: number } | { text: TextMatch };

/** How the element a query finds looks, from the page's own point of view. */
export interface Snapshot {
  /** How many elements the query finds; the rest describes the first. */
  count: number;
  visible: boolean;
  /** Its text, whitespace collapsed. */
  text: string;
  /** A field's value, else null. */
  value: string | null;
  focused: boolean;
  disabled: boolean;
  attributes: Record<string, string>;
  /** Where it is in the viewport, in CSS pixels. */
  box: { top: number; bottom: number; left: number; right: number } | null;
  /** The computed styles asked for. */
  styles: Record<string, string>;
}

export interface PageFacts {
  url: string;
  scrollY: number;
  maxScrollY: number;
  innerWidth: number;
  innerHeight: number;
  /** How far down the viewport's top is covered by fixed or sticky elements (a sticky header), else 0. */
  coveredTop: number;
  /** The page's script has taken over (test/e2e/interactive-mark.ts). */
  interactive: boolean;
  /** What the page wrote with console.error, and the errors it did not catch (init-script.ts). */
  consoleErrors: string[];
  language: string;
  title: string;
  /** The colour scheme the page is told the visitor prefers. */
  colorScheme: 'light' | 'dark';
}

/** Where a pointer clicks the one element a query finds (and whether it was scrolled there), or why it cannot yet. */
export type ClickPoint = { x: number; y: number; scrolled: boolean } | { notYet: string };

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Whether `value` is `match` (`exactly`), or contains it. */
function matches(value: string, match: TextMatch, exactly: boolean): boolean {
  const text = collapse(value);
  if (typeof match !== 'string') return new RegExp(match.pattern, match.flags).test(text);
  return exactly ? text === collapse(match) : text.includes(collapse(match));
}

function levelOf(element: Element): number | undefined {
  const aria = element.getAttribute('aria-level');
  if (aria) return Number(aria);
  const tag = /^h([1-6])$/.exec(element.localName);
  return tag ? Number(tag[1]) : undefined;
}

/** The elements under `scope` that one step finds. Elements hidden from everyone (and from a screen reader) are not found. */
function findIn(scope: ParentNode, step: Step): Element[] {
  const candidates = [...scope.querySelectorAll('*')].filter(
    (element) => !['script', 'style', 'template', 'head', 'title', 'meta'].includes(element.localName),
  );
  if ('text' in step) {
    const found = candidates.filter((element) => matches(element.textContent ?? '', step.text, false));
    // The innermost: the element that holds the text, not each of its ancestors.
    return found
      .filter((element) => !found.some((other) => other !== element && element.contains(other)))
      .filter((element) => !isInaccessible(element));
  }
  return candidates.filter(
    (element) =>
      getRole(element) === step.role &&
      (step.level === undefined || levelOf(element) === step.level) &&
      (step.name === undefined || matches(computeAccessibleName(element), step.name, true)) &&
      !isInaccessible(element),
  );
}

function resolve(steps: Step[]): Element[] {
  let scopes: ParentNode[] = [document];
  let found: Element[] = [];
  for (const step of steps) {
    found = [...new Set(scopes.flatMap((scope) => findIn(scope, step)))];
    scopes = found;
  }
  return found;
}

function isVisible(element: Element): boolean {
  const box = element.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) return false;
  const check = (element as Element & { checkVisibility?: (options: object) => boolean }).checkVisibility;
  return check ? check.call(element, { visibilityProperty: true, checkVisibilityCSS: true }) : true;
}

const isDisabled = (element: Element) =>
  ('disabled' in element && element.disabled === true) || element.getAttribute('aria-disabled') === 'true';

function inspect(steps: Step[], styles: string[] = []): Snapshot {
  const found = resolve(steps);
  const element = found[0];
  if (!element)
    return {
      count: 0,
      visible: false,
      text: '',
      value: null,
      focused: false,
      disabled: false,
      attributes: {},
      box: null,
      styles: {},
    };
  const { top, bottom, left, right } = element.getBoundingClientRect();
  const computed = getComputedStyle(element);
  return {
    count: found.length,
    visible: isVisible(element),
    text: collapse(element.textContent ?? ''),
    value: 'value' in element && typeof element.value === 'string' ? element.value : null,
    focused: document.activeElement === element,
    disabled: isDisabled(element),
    attributes: Object.fromEntries([...element.attributes].map(({ name, value }) => [name, value])),
    box: { top, bottom, left, right },
    styles: Object.fromEntries(styles.map((name) => [name, computed.getPropertyValue(name)])),
  };
}

function coveredTop(): number {
  let covered = 0;
  for (const element of document.body.querySelectorAll('*')) {
    const { position } = getComputedStyle(element);
    if (position !== 'fixed' && position !== 'sticky') continue;
    const box = element.getBoundingClientRect();
    if (box.top <= 1 && box.bottom > 0 && box.height > 0 && isVisible(element))
      covered = Math.max(covered, box.bottom);
  }
  return covered;
}

/**
 * Brings the one element a query finds into view, at once (the page's smooth scrolling is for people), and
 * says where a pointer would click it: its middle, if that is the element and not something over it.
 */
function clickPoint(steps: Step[], needsScript: boolean): ClickPoint {
  const state = window as unknown as { __mandjeInteractive?: boolean };
  if (needsScript && state.__mandjeInteractive !== true) return { notYet: 'the page is not interactive yet' };
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
  // The middle of the part in view (all of it, unless it is taller than the viewport).
  const x = Math.round((Math.max(box.left, 0) + Math.min(box.right, innerWidth)) / 2);
  const y = Math.round((Math.max(box.top, covered) + Math.min(box.bottom, innerHeight)) / 2);
  const hit = document.elementFromPoint(x, y);
  if (!hit || !(element === hit || element.contains(hit)))
    return {
      notYet: `something else is on top of it: <${hit?.localName}> ${collapse(hit?.textContent ?? '').slice(0, 60)}`,
    };
  return { x, y, scrolled };
}

/**
 * Resolves after a few frames, once the page has laid out again after a scroll: sections that came near are
 * rendered a frame or two later (content-visibility), and in WebKit, which does not anchor the scroll, that
 * moves what is below them. Only where the page may run scripts: without, frames never come in Chromium.
 */
function afterFrames(): Promise<void> {
  return new Promise((done) => {
    let frames = 3;
    const next = () => (--frames === 0 ? done() : requestAnimationFrame(next));
    requestAnimationFrame(next);
  });
}

/** Selects a field's text, so that what is typed next replaces it. */
function selectText(steps: Step[]): void {
  const [element] = resolve(steps);
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) element.select();
}

function page(): PageFacts {
  const state = window as unknown as { __mandjeInteractive?: boolean; __journeyErrors?: string[] };
  return {
    url: location.href,
    scrollY: window.scrollY,
    maxScrollY: document.documentElement.scrollHeight - innerHeight,
    innerWidth,
    innerHeight,
    coveredTop: coveredTop(),
    interactive: state.__mandjeInteractive === true,
    consoleErrors: state.__journeyErrors ?? [],
    language: document.documentElement.lang,
    title: document.title,
    colorScheme: matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  };
}

/** Leaves a mark that lives as long as this document: a navigation to a new one loses it. */
function markDocument(): void {
  (window as unknown as { __journeyDocument?: boolean }).__journeyDocument = true;
}

function isMarkedDocument(): boolean {
  return (window as unknown as { __journeyDocument?: boolean }).__journeyDocument === true;
}

const agent = { inspect, clickPoint, afterFrames, selectText, page, markDocument, isMarkedDocument };
export type JourneyAgent = typeof agent;

(globalThis as unknown as { __journeyAgent: JourneyAgent }).__journeyAgent = agent;
