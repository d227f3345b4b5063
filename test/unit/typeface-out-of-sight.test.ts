import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTypefaceOutOfSight } from '../../frontend/src/fonts/typeface-out-of-sight';

/** The IntersectionObserver last made: what it watches, and how to hand it the browser's entries. */
let observer: FakeObserver | undefined;

class FakeObserver {
  readonly observed = new Set<Element>();
  disconnected = false;
  constructor(readonly report: (entries: { target: Element; isIntersecting: boolean }[]) => void) {
    observer = this;
  }
  observe = (target: Element) => this.observed.add(target);
  unobserve = (target: Element) => this.observed.delete(target);
  disconnect = () => (this.disconnected = true);
}

const part = (selector: string) => document.querySelector(selector) as Element;

describe('setTypefaceOutOfSight', () => {
  beforeEach(() => {
    document.body.innerHTML =
      '<div id="root"><header>Hero</header><main><section id="a">A</section><section id="b">B</section></main><footer>Foot</footer></div>';
    vi.stubGlobal('IntersectionObserver', FakeObserver);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    observer = undefined;
    delete document.documentElement.dataset.typeface;
  });

  it('sets each part of the page in the typeface once it is out of sight, never one in view', () => {
    const stop = setTypefaceOutOfSight();
    const watched = observer?.observed ?? new Set();
    expect([...watched].map((each) => each.id || each.tagName)).toEqual(['HEADER', 'a', 'b', 'FOOTER']);

    observer?.report([
      { target: part('header'), isIntersecting: true },
      { target: part('#b'), isIntersecting: false },
    ]);
    expect(part('header').hasAttribute('data-typeface')).toBe(false);
    expect(part('#b').getAttribute('data-typeface')).toBe('out-of-sight');
    expect(watched.has(part('#b'))).toBe(false);

    stop();
    expect(observer?.disconnected).toBe(true);
  });

  it('fetches the file for the next page, once this one has painted', () => {
    const load = vi.fn(() => Promise.resolve([]));
    Object.defineProperty(document, 'fonts', { value: { load }, configurable: true });
    setTypefaceOutOfSight();
    expect(load).toHaveBeenCalledWith('1em "Bricolage Grotesque Swap"');
    Reflect.deleteProperty(document, 'fonts');
  });

  it('does nothing on a page set in the typeface from its first paint (its file was in the cache)', () => {
    document.documentElement.dataset.typeface = 'cached';
    setTypefaceOutOfSight();
    expect(observer).toBeUndefined();
  });

  it('does nothing where the browser cannot tell what is in sight', () => {
    vi.unstubAllGlobals();
    // jsdom has none, as an old browser would not.
    expect('IntersectionObserver' in window).toBe(false);
    expect(() => setTypefaceOutOfSight()()).not.toThrow();
    expect(document.querySelector('[data-typeface]')).toBeNull();
  });
});
