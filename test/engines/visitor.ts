// A person at the page in any engine: finds things by role and name or text, clicks them once still, types,
// and reads what the page shows; on a driver's primitives (drivers.ts) and the agent in the page (agent.ts).
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { buildSync } from 'esbuild';
import type { ClickPoint, JourneyAgent, PageFacts, Snapshot, Step } from './agent';
import type { Engine, Tab } from './drivers';

const AGENT = buildSync({
  entryPoints: [join(import.meta.dirname, 'agent.ts')],
  bundle: true,
  write: false,
  format: 'iife',
  target: 'es2022',
  minify: true,
}).outputFiles[0]?.text as string;

/** An expression that calls the agent in the page, installing it first where it is not there yet. */
const call = <Method extends keyof JourneyAgent>(method: Method, ...args: Parameters<JourneyAgent[Method]>) =>
  `(() => { if (!globalThis.__journeyAgent) { ${AGENT} }
    return globalThis.__journeyAgent.${method}(...${JSON.stringify(args)}); })()`;

/** A name (exact, whitespace collapsed) or a text (contained), or what the expression matches. */
type Text = string | RegExp;
const toMatch = (text: Text) =>
  typeof text === 'string' ? text : { pattern: text.source, flags: text.flags };

/** Something on the page, found afresh each time it is used (like a Playwright locator). */
export class Target {
  constructor(
    private readonly visitor: Visitor,
    private readonly steps: Step[],
  ) {}

  role(role: string, name?: Text, level?: number): Target {
    return new Target(this.visitor, [...this.steps, { role, name: name && toMatch(name), level }]);
  }

  /** The innermost element inside this one whose text contains this. */
  text(text: Text): Target {
    return new Target(this.visitor, [...this.steps, { text: toMatch(text) }]);
  }

  toString(): string {
    return this.steps.map((step) => JSON.stringify(step)).join(' › ');
  }

  inspect(): Promise<Snapshot> {
    return this.visitor.tab.evaluate<Snapshot>(call('inspect', this.steps));
  }

  // Where a pointer clicks it once it is the one element found, visible, enabled, not covered and still: in
  // the same place twice in a row, not just scrolled into view (that can lay the page out again).
  private async whenStill(): Promise<{ x: number; y: number }> {
    const { tab, javaScript } = this.visitor;
    let reason = '';
    let last: ClickPoint | undefined;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
      const point = await tab
        .evaluate<ClickPoint>(call('clickPoint', this.steps, javaScript))
        // A navigation under way: the page is not there to ask yet.
        .catch((error: Error) => ({ notYet: error.message }));
      if ('x' in point && !point.scrolled && last && 'x' in last && point.x === last.x && point.y === last.y)
        return point;
      reason = 'x' in point ? 'it is moving' : point.notYet;
      last = point;
      if ('x' in point && point.scrolled && javaScript) await tab.evaluate(call('afterFrames'));
      else await delay('x' in point && point.scrolled ? 150 : 50);
    }
    throw new Error(`${this} is not in view and still: ${reason}`);
  }

  async click(): Promise<void> {
    const { x, y } = await this.whenStill();
    await this.visitor.tab.click(x, y);
  }

  /** Clicks into a field and types `text` over what it holds. */
  async fill(text: string): Promise<void> {
    await this.click();
    await this.visitor.tab.evaluate(call('selectText', this.steps));
    await this.visitor.tab.type(text);
  }

  /** How much what is drawn in its box stands out from the ground there (WCAG's ratio), from a screenshot. */
  async inkContrast(): Promise<number> {
    await this.whenStill();
    const { box } = await this.inspect();
    if (!box) throw new Error(`${this} is not there`);
    const png = await this.visitor.tab.screenshot();
    return this.visitor.tab.evaluate<number>(call('inkContrast', { png, box }));
  }
}

export class Visitor {
  constructor(
    readonly tab: Tab,
    readonly site: string,
    readonly javaScript: boolean,
  ) {}

  /** Opens a path of the site (or a URL) and, with scripts on, waits until the page's script has taken over. */
  async open(pathOrUrl: string): Promise<void> {
    await this.tab.goto(new URL(pathOrUrl, this.site).href);
    if (!this.javaScript) return;
    for (const deadline = Date.now() + 15_000; !(await this.page()).interactive; await delay(50))
      if (Date.now() > deadline) throw new Error(`${pathOrUrl} did not become interactive`);
    // The renders the first effects ask for land a task later: a person is never that quick, Firefox's driver can be.
    await delay(100);
  }

  role: Target['role'] = (...args) => new Target(this, []).role(...args);
  text: Target['text'] = (text) => new Target(this, []).text(text);

  page(): Promise<PageFacts> {
    return this.tab.evaluate<PageFacts>(call('page'));
  }

  /** The path, query and fragment of the address shown. */
  async location(): Promise<string> {
    const { pathname, search, hash } = new URL((await this.page()).url);
    return pathname + search + hash;
  }

  markDocument = () => this.tab.evaluate(call('markDocument'));
  isMarkedDocument = () => this.tab.evaluate<boolean>(call('isMarkedDocument'));
}

/** Runs `journey` in a fresh tab of `engine` (its own profile), closing the tab whatever happens. */
export async function visit(
  engine: Engine,
  site: string,
  { javaScript, dark }: { javaScript: boolean; dark: boolean },
  journey: (visitor: Visitor) => Promise<void>,
): Promise<void> {
  const tab = await engine.newTab({ javaScript, dark, initScript: AGENT });
  try {
    await journey(new Visitor(tab, site, javaScript));
  } finally {
    await tab.close();
  }
}
