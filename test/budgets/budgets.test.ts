import { beforeAll, describe, expect, test } from 'vitest';
import { type BudgetCheck, describeBudget, evaluateBudget, LIGHTHOUSE_BUDGETS } from '../../bench/budgets';
import { BUNDLE_BUDGET_CHECKS, type BundleMeasurement, measureBundle } from '../../bench/bundle';
import { measurePages, PAGE_BUDGET_CHECKS, type PagesMeasurement } from '../../bench/lighthouse';

/** A test per budget, on what `measured` gives once its suite's beforeAll has run. */
function budgetTests<Measurement>(checks: BudgetCheck<Measurement>[], measured: () => Measurement) {
  for (const check of checks)
    test(`${check.name} is ${describeBudget(check)}`, () => {
      const result = evaluateBudget(check, measured());
      const why = `${result.name} is ${result.value}, budget ${result.budget}`;
      expect(result.met, result.explanation ? `${why}; ${result.explanation}` : why).toBe(true);
    });
}

describe('what the first view of / downloads, and the Lambda bundle', () => {
  let bundle: BundleMeasurement;
  beforeAll(async () => {
    bundle = await measureBundle();
  });

  test('the build without React starts the same scripts as dist/, React aside', () => {
    const chunkNames = (files: { file: string }[]) =>
      files.map(({ file }) => file.replace(/-[\w-]{8}\.js$/, ''));
    expect(chunkNames(bundle.initialJsWithoutReact.files)).toEqual(chunkNames(bundle.initialJs.files));
  });
  budgetTests(BUNDLE_BUDGET_CHECKS, () => bundle);
});

describe(`Lighthouse mobile, median of ${LIGHTHOUSE_BUDGETS.runsPerPage} runs`, () => {
  let pages: PagesMeasurement;
  // Mobile runs of each page, in turn, a fresh Chromium each: about 10 s a run.
  beforeAll(async () => {
    pages = await measurePages();
  });

  budgetTests(PAGE_BUDGET_CHECKS, () => pages);
});
