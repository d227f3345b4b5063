import { beforeAll, describe, expect, test } from 'vitest';
import { type BudgetResult, describeBudget, evaluateBudget, LIGHTHOUSE_BUDGETS } from '../../bench/budgets';
import { measurePages, PAGE_BUDGET_CHECKS, type PagesMeasurement } from '../../bench/lighthouse';

const budgetMessage = (result: BudgetResult) =>
  `${result.name} is ${result.value}, budget ${result.budget}${result.explanation ? `; ${result.explanation}` : ''}`;

let pages: PagesMeasurement;

// Mobile runs of each page, in turn, a fresh Chromium each: about 10 s a run.
beforeAll(async () => {
  pages = await measurePages();
});

describe(`Lighthouse mobile, median of ${LIGHTHOUSE_BUDGETS.runsPerPage} runs`, () => {
  for (const check of PAGE_BUDGET_CHECKS) {
    test(`${check.name} is ${describeBudget(check)}`, () => {
      const result = evaluateBudget(check, pages);
      expect(result.met, budgetMessage(result)).toBe(true);
    });
  }
});
