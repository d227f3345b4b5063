import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = join(ROOT, 'docs');
const PAGES = [
  'README.md',
  ...readdirSync(DOCS).flatMap((name) => (name.endsWith('.md') ? [`docs/${name}`] : [])),
];

/** The text outside fenced code blocks, where a `](…)` is an example, not a link. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** Every relative link and image of a page: Markdown `](target)` and HTML `src="target"`. */
function relativeTargets(markdown: string): string[] {
  const text = prose(markdown);
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)|\bsrc="([^"]+)"/g)].map(
    (match) => match[1] ?? match[2] ?? '',
  );
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (file: string) =>
  new Set(
    [...prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => slug(match[1] ?? '')),
  );

describe('the README and docs/ link only to what exists', () => {
  it.each(PAGES)('%s', (name) => {
    const file = join(ROOT, name);
    const broken: string[] = [];
    for (const target of relativeTargets(readFileSync(file, 'utf8'))) {
      const [path = '', anchor] = target.split('#');
      const linked = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (!existsSync(linked)) broken.push(`${target}: no such file`);
      else if (anchor !== undefined && linked.endsWith('.md') && !anchorsOf(linked).has(anchor))
        broken.push(`${target}: no heading #${anchor}`);
    }
    expect(broken).toEqual([]);
  });

  it('finds the links it checks', () => {
    const readme = relativeTargets(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(readme).toContain('docs/performance.md');
    expect(readme).toContain('docs/screenshot.png');
  });
});
