import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BRAND_NAME } from '#contract/brand';
import { WORDMARK } from '../../../frontend/src/components/wordmark-box';

const srcDir = join(import.meta.dirname, '../../../frontend/src');
const read = (path: string) => readFileSync(join(srcDir, path), 'utf8');

it("the logo's wordmark is the brand's name, in its box, in the brand colour of either theme", () => {
  const [light, dark] = [...read('styles.css').matchAll(/--color-brand-900: (#[0-9a-f]{6});/g)].map(
    ([, colour]) => colour,
  );
  const svg = read('components/wordmark.svg');

  expect(svg).toContain(`viewBox="0 0 ${WORDMARK.width} ${WORDMARK.height}"`);
  expect(svg).toContain(`<title>${BRAND_NAME}</title>`);
  expect(svg).toContain(
    `<style>path{fill:${light}}@media(prefers-color-scheme:dark){path{fill:${dark}}}</style>`,
  );
  expect(light).not.toBe(dark);
});
