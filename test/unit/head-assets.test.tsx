import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BRAND_NAME } from '#contract/brand';
import { LOCALES } from '#contract/locales';
import { BrandMark, WORDMARK } from '../../frontend/src/components/brand-logo';
import { messages } from '../../frontend/src/i18n/messages';
import { SOCIAL_PREVIEW } from '../../frontend/src/i18n/page-paths';

const frontendDir = resolve(import.meta.dirname, '../../frontend');
const publicFile = (path: string) => join(frontendDir, 'public', path);
const read = (path: string) => readFileSync(join(frontendDir, path), 'utf8');
const indexHtml = read('index.html');
const styles = read('src/styles.css');
const brandColour = (name: string) => styles.match(new RegExp(`--color-${name}: (#[0-9a-f]{6});`))?.[1];

/** Width and height from a PNG's header chunk, which always comes first. */
function pngSize(path: string): string {
  const bytes = readFileSync(path);
  expect(bytes.subarray(1, 4).toString('latin1'), `${path} is a PNG`).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** A PNG's iTXt Descriptions (PNG 3rd edition, 11.3.3.4), by language tag: the words the image was drawn with. */
function descriptionsOf(png: Buffer): Record<string, string> {
  const found: Record<string, string> = {};
  for (let at = 8; at + 8 <= png.length; at += 12 + png.readUInt32BE(at)) {
    if (png.toString('latin1', at + 4, at + 8) !== 'iTXt') continue;
    // Keyword, compression flag and method (0 0: none), language, translated keyword, text: 0-separated.
    const chunk = png.toString('latin1', at + 8, at + 8 + png.readUInt32BE(at));
    const [keyword, compressed, , language = '', , text = ''] = chunk.split('\0');
    if (keyword === 'Description' && compressed === '')
      found[language] = Buffer.from(text, 'latin1').toString();
  }
  return found;
}

describe('head assets', () => {
  it('the web manifest installs Mandje standalone from / in the brand colours, with icons of the sizes it says', () => {
    const manifest = JSON.parse(readFileSync(publicFile('manifest.webmanifest'), 'utf8'));
    expect(manifest).toMatchObject({
      name: 'Mandje',
      short_name: 'Mandje',
      start_url: '/',
      display: 'standalone',
      theme_color: brandColour('brand-700'),
      background_color: brandColour('paper'),
    });
    expect(indexHtml).toContain(`<meta name="theme-color" content="${manifest.theme_color}">`);
    const icons: { src: string; sizes: string; type: string; purpose: string }[] = manifest.icons;
    for (const { src, sizes, type } of icons) {
      expect(type).toBe('image/png');
      expect(pngSize(publicFile(src))).toBe(sizes);
    }
    expect(icons.map(({ purpose, sizes }) => `${purpose} ${sizes}`)).toEqual([
      'any 192x192',
      'any 512x512',
      'maskable 512x512',
    ]);
    expect(indexHtml).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png">');
    expect(pngSize(publicFile('apple-touch-icon.png'))).toBe('180x180');
  });

  it("the page's inline mark is the tab icon's drawing, shape for shape", () => {
    // The tab icon travels in the built page as a data: URL of this file (frontend/build.ts).
    const shapes = (svg: string) =>
      [...svg.matchAll(/<(circle|path|rect)\b([^>]*?)\s*\/?>/g)].map(
        ([, tag, attributes]) => `${tag}${attributes}`,
      );
    const icon = readFileSync(publicFile('favicon.svg'), 'utf8');
    expect(shapes(icon)).toHaveLength(5);
    expect(shapes(renderToStaticMarkup(<BrandMark />))).toEqual(shapes(icon));
  });

  it("the logo's wordmarks are the brand's name, in its box, each in the brand colour of its theme", () => {
    const [light = '', dark = ''] = [...styles.matchAll(/--color-brand-900: (#[0-9a-f]{6});/g)].map(
      ([, c]) => c,
    );
    const svg = read('src/components/wordmark.svg');
    expect(svg).toContain(`viewBox="0 0 ${WORDMARK.width} ${WORDMARK.height}"`);
    expect(svg).toContain(`<title>${BRAND_NAME}</title>`);
    // Each file one colour of its own: an image is not told the page's colour scheme in every engine (WebKit).
    expect([...svg.matchAll(/fill="(#[0-9a-f]{6})"/g)].map(([, fill]) => fill)).toEqual([light]);
    expect(svg).not.toContain('prefers-color-scheme');
    expect(read('src/components/wordmark-dark.svg')).toBe(svg.replace(light, dark));
    expect(light).not.toBe(dark);
  });

  // The pages announce it with the size it states (test/e2e/home.spec.ts checks the rest).
  it.each(LOCALES)(
    'the %s social preview is 1200 × 630 as stated, under 100 KB, and drawn with the words its alt text says',
    (locale) => {
      const path = publicFile(SOCIAL_PREVIEW.path[locale]);
      expect(pngSize(path)).toBe(`${SOCIAL_PREVIEW.width}x${SOCIAL_PREVIEW.height}`);
      expect(SOCIAL_PREVIEW).toMatchObject({ width: 1200, height: 630 });
      expect(statSync(path).size).toBeLessThan(100 * 1024);
      // Each preview stores the words it was drawn with; a changed title needs a redrawn preview.
      expect(descriptionsOf(readFileSync(path))).toEqual({
        [locale]: `Mandje: ${messages[locale].hero.title}`,
      });
    },
  );
});
