import { beforeAll, describe, expect, test } from 'vitest';
import { type Budget, LIGHTHOUSE_BUDGETS } from '../../bench/budgets';
import { type BundleMeasurement, bundleBudgets, measureBundle } from '../../bench/bundle';
import { measurePages, type PagesMeasurement, pageBudgets } from '../../bench/lighthouse';

/** Every budget missed, with its figure and what the measurement says of it. */
const missed = (budgets: Budget[]) =>
  budgets
    .filter((budget) => !budget.met)
    .map(({ name, value, budget, why }) => `${name} is ${value}, budget ${budget}${why && `; ${why}`}`);

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

  test('meets every bundle budget', () => {
    expect(bundleBudgets(bundle)).toHaveLength(6);
    expect(missed(bundleBudgets(bundle))).toEqual([]);
  });
});

describe(`Lighthouse mobile, median of ${LIGHTHOUSE_BUDGETS.runsPerPage} runs`, () => {
  let pages: PagesMeasurement;
  // Mobile runs of each page, in turn, a fresh Chromium each: about 10 s a run.
  beforeAll(async () => {
    pages = await measurePages();
  });

  // Total Blocking Time is held by the bench alone (LIGHTHOUSE_BUDGETS.maxTbtMs says why).
  test.each(LIGHTHOUSE_BUDGETS.pages)('meets every budget of %s but Total Blocking Time', (path) => {
    const page = { ...pages, pages: pages.pages.filter((measured) => measured.path === path) };
    const budgets = pageBudgets(page).filter(({ name }) => !name.startsWith('Total Blocking Time'));
    expect(budgets).toHaveLength(6);
    expect(missed(budgets)).toEqual([]);
  });
});
