import { beforeAll, describe, expect, test } from 'vitest';
import { type BudgetResult, describeBudget, evaluateBudget } from '../../bench/budgets';
import { BUNDLE_BUDGET_CHECKS, type BundleMeasurement, measureBundle } from '../../bench/bundle';

const budgetMessage = (result: BudgetResult) =>
  `${result.name} is ${result.value}, budget ${result.budget}${result.explanation ? `; ${result.explanation}` : ''}`;

let bundle: BundleMeasurement;

beforeAll(async () => {
  bundle = await measureBundle();
});

describe('what the first view of / downloads, and the Lambda bundle', () => {
  test('the module breakdown was measured on the same scripts as dist/', () => {
    expect(
      bundle.breakdown.matchesDist,
      'the source-mapped build differs from dist/: the sources changed since `npm run build`',
    ).toBe(true);
  });

  for (const check of BUNDLE_BUDGET_CHECKS) {
    test(`${check.name} is ${describeBudget(check)}`, () => {
      const result = evaluateBudget(check, bundle);
      expect(result.met, budgetMessage(result)).toBe(true);
    });
  }
});
