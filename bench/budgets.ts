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

export interface BudgetCheck<Measurement> {
  name: string;
  kind: 'max' | 'min';
  limit: number;
  /** A stricter figure the bench reports against, where CI allows slack. */
  target?: number;
  measure: (measurement: Measurement) => number;
  format: (value: number) => string;
  explain?: (measurement: Measurement) => string;
}

export type BudgetResult = ReturnType<typeof evaluateBudget>;

export function describeBudget(check: BudgetCheck<never>): string {
  const target = check.target === undefined ? '' : ` (target ${check.format(check.target)})`;
  return `${check.kind === 'max' ? '≤' : '≥'} ${check.format(check.limit)}${target}`;
}

export function evaluateBudget<Measurement>(check: BudgetCheck<Measurement>, measurement: Measurement) {
  const value = check.measure(measurement);
  const within = (limit: number) => (check.kind === 'max' ? value <= limit : value >= limit);
  return {
    name: check.name,
    value: check.format(value),
    budget: describeBudget(check),
    met: within(check.limit),
    metTarget: within(check.limit) && within(check.target ?? check.limit),
    explanation: check.explain?.(measurement) ?? '',
  };
}
