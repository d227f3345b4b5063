import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { render, screen } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BRAND_NAME } from '#contract/brand';
import { LOCALES } from '#contract/locales';
import { BrandLogo, BrandMark } from '../../frontend/src/components/brand-logo';
import { siteConfig } from '../../frontend/src/config/site';
import { messages } from '../../frontend/src/i18n/messages';
import { SOCIAL_PREVIEW } from '../../frontend/src/i18n/social-preview';
import { prerenderPage } from '../../frontend/src/prerender';

const frontendDir = resolve(import.meta.dirname, '../../frontend');
const publicFile = (path: string) => join(frontendDir, 'public', path);
const indexHtml = readFileSync(join(frontendDir, 'index.html'), 'utf8');
const styles = readFileSync(join(frontendDir, 'src/styles.css'), 'utf8');
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
  for (let offset = 8; offset + 8 <= png.length; offset += 12 + png.readUInt32BE(offset)) {
    const type = png.toString('latin1', offset + 4, offset + 8);
    if (type === 'IEND') break;
    if (type !== 'iTXt') continue;
    const data = png.subarray(offset + 8, offset + 8 + png.readUInt32BE(offset));
    const keywordEnd = data.indexOf(0);
    const languageEnd = data.indexOf(0, keywordEnd + 3);
    if (data.toString('latin1', 0, keywordEnd) === 'Description' && data[keywordEnd + 1] === 0)
      found[data.toString('latin1', keywordEnd + 3, languageEnd)] = data.toString(
        'utf8',
        data.indexOf(0, languageEnd + 1) + 1,
      );
  }
  return found;
}

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
}

describe('head assets', () => {
  const manifest = JSON.parse(readFileSync(publicFile('manifest.webmanifest'), 'utf8')) as Manifest;

  it('the web manifest installs Mandje standalone from / in the brand colours', () => {
    expect(manifest).toMatchObject({
      name: 'Mandje',
      short_name: 'Mandje',
      start_url: '/',
      display: 'standalone',
    });
    expect(manifest.theme_color).toBe(brandColour('brand-700'));
    expect(manifest.background_color).toBe(brandColour('paper'));
    expect(indexHtml).toContain(`<meta name="theme-color" content="${manifest.theme_color}">`);
    expect(indexHtml).toContain('<link rel="manifest" href="/manifest.webmanifest">');
  });

  it('every icon the manifest names exists at its stated size, with 192 and 512 px and a maskable one', () => {
    for (const { src, sizes, type } of manifest.icons) {
      expect(type).toBe('image/png');
      expect(pngSize(publicFile(src))).toBe(sizes);
    }
    const sizesFor = (purpose: string) =>
      manifest.icons.filter((icon) => icon.purpose === purpose).map((icon) => icon.sizes);
    expect(sizesFor('any')).toEqual(['192x192', '512x512']);
    expect(sizesFor('maskable')).toEqual(['512x512']);
  });

  it('the apple-touch-icon is linked and 180 px square', () => {
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

  it("the logo's name is the drawing in wordmark.svg, named as the brand, fetched after what the heading needs", () => {
    render(<BrandLogo />);

    const name = screen.getByRole('img', { name: BRAND_NAME });
    expect(name.getAttribute('src')).toMatch(/\/wordmark\.svg(\?[\w-]+)?$/);
    expect(name).toHaveAttribute('fetchpriority', 'low');
    expect(screen.queryByText(BRAND_NAME)).toBeNull();
  });

  it.each(LOCALES)(
    'the %s social preview is 1200 × 630, under 100 KB, and drawn with the words its alt text says',
    (locale) => {
      const path = publicFile(SOCIAL_PREVIEW.path[locale]);
      expect(pngSize(path)).toBe('1200x630');
      expect(statSync(path).size).toBeLessThan(100 * 1024);
      // Each preview stores the words it was drawn with; a changed title needs a redrawn preview.
      expect(descriptionsOf(readFileSync(path))).toEqual({
        [locale]: `Mandje: ${messages[locale].hero.title}`,
      });
    },
  );

  it('each language’s pages announce the preview in their language, with an absolute URL, size and alt', () => {
    const expected = {
      nl: { image: '/social-preview.png', alt: `Mandje: ${messages.nl.hero.title}` },
      en: { image: '/social-preview-en.png', alt: `Mandje: ${messages.en.hero.title}` },
    };
    expect(expected.en.alt).not.toBe(expected.nl.alt);
    for (const locale of LOCALES) {
      for (const page of ['home', 'privacy', 'not-found'] as const) {
        const { head } = prerenderPage(page, locale);
        expect(head).toContain(
          `<meta property="og:image" content="${siteConfig.siteUrl}${expected[locale].image}">`,
        );
        expect(head).toContain('<meta property="og:image:width" content="1200">');
        expect(head).toContain('<meta property="og:image:height" content="630">');
        expect(head).toContain(`<meta property="og:image:alt" content="${expected[locale].alt}">`);
        expect(head).toContain('<meta name="twitter:card" content="summary_large_image">');
      }
    }
  });
});
