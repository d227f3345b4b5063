import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BRAND_NAME } from '#contract/brand';
import { WORDMARK } from '../../../frontend/src/components/brand-logo';

const srcDir = join(import.meta.dirname, '../../../frontend/src');
const read = (path: string) => readFileSync(join(srcDir, path), 'utf8');

it("the logo's wordmarks are the brand's name, in its box, each in the brand colour of its theme", () => {
  const [light = '', dark = ''] = [...read('styles.css').matchAll(/--color-brand-900: (#[0-9a-f]{6});/g)].map(
    ([, colour]) => colour,
  );
  const svg = read('components/wordmark.svg');

  expect(svg).toContain(`viewBox="0 0 ${WORDMARK.width} ${WORDMARK.height}"`);
  expect(svg).toContain(`<title>${BRAND_NAME}</title>`);
  // Each file one colour of its own: an image is not told the page's colour scheme in every engine (WebKit).
  expect([...svg.matchAll(/fill="(#[0-9a-f]{6})"/g)].map(([, fill]) => fill)).toEqual([light]);
  expect(svg).not.toContain('prefers-color-scheme');
  expect(read('components/wordmark-dark.svg')).toBe(svg.replace(light, dark));
  expect(light).not.toBe(dark);
});
