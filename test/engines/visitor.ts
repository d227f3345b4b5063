/**
 * A person at the page, in any engine: finds things by role and accessible name or by their text, clicks
 * them with a pointer, types with a keyboard, and reads what the page shows. Written once on the three
 * drivers' few primitives (engine.ts) and the agent in the page (in-page/agent.ts).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { agentCall, INIT_SCRIPT } from './agent-source';
import type { ColorScheme, Engine, EngineTab } from './engine';
import type { ClickPoint, PageFacts, Snapshot, Step, TextMatch } from './in-page/agent';
import { decodePng, inkContrast } from './pixels';

/**
 * A name (exactly this, whitespace collapsed) or a text (containing this), or anything the expression
 * matches.
 */
type Text = string | RegExp;

const toMatch = (text: Text): TextMatch =>
  typeof text === 'string' ? text : { pattern: text.source, flags: text.flags };

const describeStep = (step: Step) =>
  'text' in step
    ? `text ${JSON.stringify(step.text)}`
    : `${step.role}${step.name === undefined ? '' : ` ${JSON.stringify(step.name)}`}`;

/** How long an action waits for its element to be there, visible, enabled and not covered. */
const ACTION_TIMEOUT_MS = 10_000;
/** How long `open` waits for the page's script to take over. */
const INTERACTIVE_TIMEOUT_MS = 15_000;
const SETTLE_MS = 100;

/** Something on the page a query finds, found afresh each time it is used (like a Playwright locator). */
export class Target {
  constructor(
    private readonly visitor: Visitor,
    readonly steps: Step[],
  ) {}

  /** An element with this role (and name) inside this one. */
  role(role: string, name?: Text, { level }: { level?: number } = {}): Target {
    return new Target(this.visitor, [
      ...this.steps,
      { role, ...(name === undefined ? {} : { name: toMatch(name) }), ...(level ? { level } : {}) },
    ]);
  }

  /** The innermost element inside this one whose text contains this. */
  text(text: Text): Target {
    return new Target(this.visitor, [...this.steps, { text: toMatch(text) }]);
  }

  toString(): string {
    return this.steps.map(describeStep).join(' › ');
  }

  inspect(styles: string[] = []): Promise<Snapshot> {
    return this.visitor.tab.evaluate<Snapshot>(agentCall('inspect', this.steps, styles));
  }

  isVisible = async () => (await this.inspect()).visible;
  count = async () => (await this.inspect()).count;
  content = async () => (await this.inspect()).text;
  value = async () => (await this.inspect()).value;
  isFocused = async () => (await this.inspect()).focused;
  isDisabled = async () => (await this.inspect()).disabled;
  attribute = async (name: string) => (await this.inspect()).attributes[name] ?? null;

  /** What holds it: the query without its last step. */
  get scope(): Target | undefined {
    return this.steps.length > 1 ? new Target(this.visitor, this.steps.slice(0, -1)) : undefined;
  }

  /** A pointer's click in its middle, once it is in view and still (`whenStill`). */
  async click(): Promise<void> {
    const { x, y } = await this.whenStill();
    return this.visitor.tab.click(x, y);
  }

  /**
   * How much what is drawn in its box stands out from the ground there, as a contrast ratio (WCAG), read
   * from a picture of the screen once it is in view and still.
   */
  async inkContrast(): Promise<number> {
    await this.whenStill();
    const { box } = await this.inspect();
    const { innerWidth } = await this.visitor.page();
    const picture = decodePng(await this.visitor.tab.screenshot());
    if (!box) throw new Error(`${this} is not there`);
    const scale = picture.width / innerWidth;
    const [left, top] = [Math.ceil(box.left * scale), Math.ceil(box.top * scale)];
    return inkContrast(picture, {
      x: left,
      y: top,
      width: Math.floor(box.right * scale) - left,
      height: Math.floor(box.bottom * scale) - top,
    });
  }

  /**
   * Where a pointer would click it, its middle, once it is the one element found, visible, enabled, not
   * covered and still: in the same place twice in a row, and a moment after it was scrolled into view, for
   * that can make the page lay out again (a section rendered as it comes near, the end of the page with it)
   * and move it.
   */
  private async whenStill(): Promise<{ x: number; y: number }> {
    const deadline = Date.now() + ACTION_TIMEOUT_MS;
    let reason = '';
    let last: ClickPoint | undefined;
    while (Date.now() < deadline) {
      const point = await this.visitor.tab
        .evaluate<ClickPoint>(agentCall('clickPoint', this.steps, this.visitor.javaScript))
        // A navigation under way: the page is not there to ask yet.
        .catch((error: Error) => ({ notYet: error.message }));
      if ('x' in point && !point.scrolled && last && 'x' in last && point.x === last.x && point.y === last.y)
        return point;
      reason = 'x' in point ? 'it is moving' : point.notYet;
      last = point;
      if ('x' in point && point.scrolled && this.visitor.javaScript)
        await this.visitor.tab.evaluate(agentCall('afterFrames'));
      else await delay('x' in point && point.scrolled ? 150 : 50);
    }
    throw new Error(`${this} is not in view and still: ${reason}`);
  }

  /** Clicks into a field and types `text` over what it holds. */
  async fill(text: string): Promise<void> {
    await this.click();
    await this.visitor.tab.evaluate(agentCall('selectText', this.steps));
    await this.visitor.tab.type(text);
  }
}

export class Visitor {
  constructor(
    readonly tab: EngineTab,
    readonly site: string,
    readonly javaScript: boolean,
  ) {}

  /** Opens a path of the site (or a full URL) and, with scripts on, waits until the page's script has taken over. */
  async open(pathOrUrl: string): Promise<void> {
    await this.tab.goto(new URL(pathOrUrl, this.site).href);
    if (!this.javaScript) return;
    const deadline = Date.now() + INTERACTIVE_TIMEOUT_MS;
    while (!(await this.page()).interactive) {
      if (Date.now() > deadline) throw new Error(`${pathOrUrl} did not become interactive`);
      await delay(50);
    }
    // The renders the first effects ask for land a task later (the signup form's noValidate, say): a
    // person is never that quick, and Firefox's driver can be.
    await delay(SETTLE_MS);
  }

  role(role: string, name?: Text, options?: { level?: number }): Target {
    return new Target(this, []).role(role, name, options);
  }

  text(text: Text): Target {
    return new Target(this, []).text(text);
  }

  page(): Promise<PageFacts> {
    return this.tab.evaluate<PageFacts>(agentCall('page'));
  }

  /** The path, query and fragment of the address shown. */
  async location(): Promise<string> {
    const { pathname, search, hash } = new URL((await this.page()).url);
    return pathname + search + hash;
  }

  press(key: 'Enter' | 'Escape'): Promise<void> {
    return this.tab.press(key);
  }

  /** Marks the document shown, to tell later whether a change happened in it or loaded another. */
  markDocument(): Promise<void> {
    return this.tab.evaluate(agentCall('markDocument'));
  }

  isMarkedDocument(): Promise<boolean> {
    return this.tab.evaluate<boolean>(agentCall('isMarkedDocument'));
  }
}

/** Runs `journey` in a fresh tab of `engine` (its own profile), closing the tab whatever happens. */
export async function visit(
  engine: Engine,
  site: string,
  { javaScript, colorScheme }: { javaScript: boolean; colorScheme: ColorScheme },
  journey: (visitor: Visitor) => Promise<void>,
): Promise<void> {
  const tab = await engine.newTab({ javaScript, initScript: INIT_SCRIPT, colorScheme });
  try {
    await journey(new Visitor(tab, site, javaScript));
  } finally {
    await tab.close();
  }
}
