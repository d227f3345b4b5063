import { defineConfig, type TestProjectConfiguration } from 'vitest/config';
import unit from './unit/vitest.config';

// What `npm run mutation` runs: the unit tier, and the cores' tests against dynalite in this process, which
// read what a conditional write left, so a changed expression fails them. `npm test` runs those in integration.
const test = { name: 'cores', environment: 'node', include: ['test/integration/*-core.test.ts'] };
const projects: TestProjectConfiguration[] = [...(unit.test?.projects ?? []), { extends: true, test }];
export default defineConfig({ ...unit, test: { ...unit.test, projects } });
