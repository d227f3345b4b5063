/** The bare twin the page bench measures beside each landing page: the same HTML, none of its script. */
import { describe, expect, it } from 'vitest';
import { withoutScripts } from '../../../bench/lighthouse';

const page = (head: string, body: string) =>
  `<!doctype html><html lang="nl"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

describe('withoutScripts', () => {
  it('removes inline and external scripts and module preloads, wherever they stand', () => {
    const html = page(
      '<style>main{color:red}</style><script>{const n=1;if(n<2)document.body.dataset.x="</div>"}</script>' +
        '<link rel="modulepreload" crossorigin href="/assets/main-abc.js"><link rel="manifest" href="/manifest.webmanifest">',
      '<main><h1>Mandje</h1></main><SCRIPT type="module" src="/assets/index-abc.js"></SCRIPT>\n<script>start()</script >',
    );

    expect(withoutScripts(html)).toBe(
      page(
        '<style>main{color:red}</style><link rel="manifest" href="/manifest.webmanifest">',
        '<main><h1>Mandje</h1></main>\n',
      ),
    );
  });

  it('leaves the text, the styles and every other link as they are, even where they name a script', () => {
    const html = page(
      '<link rel="preload" as="font" href="/font.woff2"><link rel="icon" href="data:,">',
      '<p>No script runs before this description, and <code>&lt;script&gt;</code> is text.</p>',
    );

    expect(withoutScripts(html)).toBe(html);
  });
});
