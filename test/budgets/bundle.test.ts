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
  test('the build without React starts the same scripts as dist/, React aside', () => {
    const chunkNames = (files: { file: string }[]) =>
      files.map(({ file }) => file.replace(/-[\w-]{8}\.js$/, ''));
    expect(chunkNames(bundle.initialJsWithoutReact.files)).toEqual(chunkNames(bundle.initialJs.files));
  });

  for (const check of BUNDLE_BUDGET_CHECKS) {
    test(`${check.name} is ${describeBudget(check)}`, () => {
      const result = evaluateBudget(check, bundle);
      expect(result.met, budgetMessage(result)).toBe(true);
    });
  }
});
