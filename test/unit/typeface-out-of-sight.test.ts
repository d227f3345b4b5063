import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTypefaceOutOfSight } from '../../frontend/src/fonts/typeface-out-of-sight';

/** An IntersectionObserver whose entries the test hands over, as the browser would after a scroll. */
class FakeObserver {
  static last: FakeObserver | undefined;
  readonly observed = new Set<Element>();
  disconnected = false;

  constructor(readonly callback: (entries: { target: Element; isIntersecting: boolean }[]) => void) {
    FakeObserver.last = this;
  }

  observe(target: Element) {
    this.observed.add(target);
  }

  unobserve(target: Element) {
    this.observed.delete(target);
  }

  disconnect() {
    this.disconnected = true;
    this.observed.clear();
  }

  report(target: Element, isIntersecting: boolean) {
    this.callback([{ target, isIntersecting }]);
  }
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
    FakeObserver.last = undefined;
    delete document.documentElement.dataset.typeface;
  });

  it('watches the header, each part of main and the footer, as they are on the page now', () => {
    setTypefaceOutOfSight();
    expect([...(FakeObserver.last?.observed ?? [])].map((element) => element.id || element.tagName)).toEqual([
      'HEADER',
      'a',
      'b',
      'FOOTER',
    ]);
  });

  it('sets a part in the typeface once it is out of sight, and never one the visitor is looking at', () => {
    setTypefaceOutOfSight();
    const observer = FakeObserver.last as FakeObserver;
    observer.report(part('header'), true);
    observer.report(part('#b'), false);
    expect(part('header').hasAttribute('data-typeface')).toBe(false);
    expect(part('#b').getAttribute('data-typeface')).toBe('out-of-sight');
    // Done with that part: it is not watched any more.
    expect(observer.observed.has(part('#b'))).toBe(false);

    observer.report(part('header'), false);
    expect(part('header').hasAttribute('data-typeface')).toBe(true);
  });

  it('stops watching when asked, and does nothing where the browser cannot tell what is in sight', () => {
    const stop = setTypefaceOutOfSight();
    stop();
    expect(FakeObserver.last?.disconnected).toBe(true);

    vi.unstubAllGlobals();
    const original = window.IntersectionObserver;
    // jsdom has none, as an old browser would not.
    Reflect.deleteProperty(window, 'IntersectionObserver');
    expect(() => setTypefaceOutOfSight()()).not.toThrow();
    if (original) window.IntersectionObserver = original;
  });

  it('does nothing on a page set in the typeface from its first paint (its file was in the cache)', () => {
    document.documentElement.dataset.typeface = 'cached';
    setTypefaceOutOfSight();
    expect(FakeObserver.last).toBeUndefined();
    expect(document.querySelector('#root [data-typeface]')).toBeNull();
  });

  it('fetches the file once the page has painted, for the next page, where fonts can be loaded', () => {
    const load = vi.fn(() => Promise.resolve([]));
    Object.defineProperty(document, 'fonts', { value: { load }, configurable: true });
    try {
      setTypefaceOutOfSight();
      expect(load).toHaveBeenCalledWith('1em "Bricolage Grotesque Swap"');
    } finally {
      Reflect.deleteProperty(document, 'fonts');
    }
  });
});
