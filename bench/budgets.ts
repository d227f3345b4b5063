/** What the page and the Lambda may cost, held by test/budgets/ and reported by `npm run bench`. */
const KB = 1024;

export const BUNDLE_BUDGETS = {
  /** Every script `/` loads before it is interactive, gzip (86 KB until the address rule took punycode.js). */
  initialJsGzipBytes: 87 * KB,
  nonReactInitialJsGzipBytes: 20 * KB,
  /** Inlined in the HTML of `/`, gzip. */
  cssGzipBytes: 15 * KB,
  /** HTML, initial scripts and the images, fonts and manifest of the first view, as transferred. */
  firstLoadBytes: 160 * KB,
  /** Each, brotli: a first round trip carries 14,600 bytes, 1,000 of them headers; more costs another. */
  landingHtmlBrotliBytes: 13_500,
  /** Minified, with the tested AWS SDK: the mailer, the largest, is about 740 KB. */
  lambdaBundleBytes: 800 * KB,
} as const;

/** The API bundle's import and first signup over a bare SDK client's import and one PutItem (bench only). */
export const MAX_COLD_START_RATIO = 1.35;

/** Lighthouse mobile (simulated throttling), the median of `runsPerPage` runs on each page. */
export const LIGHTHOUSE_BUDGETS = {
  pages: ['/', '/en/'],
  runsPerPage: 5,
  minScores: { accessibility: 100, 'best-practices': 100, seo: 100 },
  /** The floor in CI, where a 2-core machine makes Total Blocking Time noisy. */
  minPerformanceScore: 70,
  targetPerformanceScore: 100,
  /** Room for a 2-core CI machine, where the same build measures 860-990 ms. */
  maxLcpMs: 1200,
  /** Held by the bench alone, being as noisy as above. */
  maxTbtMs: 50,
} as const;

/** One budget against its figure: `target` is a stricter figure the bench reports against, where CI allows slack. */
export function budget(
  name: string,
  value: number,
  format: (value: number) => string,
  limit: { max: number } | { min: number; target?: number },
  why = '',
) {
  const min = 'min' in limit;
  const bound = min ? limit.min : limit.max;
  const target = min ? limit.target : undefined;
  const within = (edge: number) => (min ? value >= edge : value <= edge);
  return {
    name,
    value: format(value),
    budget: `${min ? '≥' : '≤'} ${format(bound)}${target === undefined ? '' : ` (target ${format(target)})`}`,
    met: within(bound),
    metTarget: within(bound) && within(target ?? bound),
    why,
  };
}

export type Budget = ReturnType<typeof budget>;
