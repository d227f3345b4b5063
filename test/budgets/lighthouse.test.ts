import { beforeAll, describe, expect, test } from 'vitest';
import { budgetMessage, describeBudget, evaluateBudget } from '../../bench/budgets';
import { measurePages, PAGE_BUDGET_CHECKS, type PagesMeasurement } from '../../bench/lighthouse';

let pages: PagesMeasurement;

// Five mobile runs of a bare page and of each page, in turn, a fresh Chromium each: about 10 s a run.
beforeAll(async () => {
  pages = await measurePages();
});

describe('Lighthouse mobile, median of five runs, next to a bare page', () => {
  for (const check of PAGE_BUDGET_CHECKS) {
    test(`${check.name} is ${describeBudget(check)}`, () => {
      const result = evaluateBudget(check, pages);
      expect(result.met, budgetMessage(result)).toBe(true);
    });
  }
});
