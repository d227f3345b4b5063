/**
 * The arrows between the project's folders, enforced by `npm run lint` (dependency-cruiser). README's layout
 * diagram draws these rules:
 *
 *   contract/  ← imported by every other folder; imports nothing of the project
 *   functions/ → contract/                    (the Lambda code)
 *   frontend/  → contract/                    (the page and its build)
 *   infra/     → contract/                    (the stack; takes frontend/ and functions/ as built folders)
 *   local/     → functions/, contract/        (the runner: the real handlers on one machine)
 *   operator/  → local/, functions/, contract/
 *   bench/     → any of the above, never test/
 *   test/      → anything
 *
 * Inside the page (frontend/src): pages → features → components, i18n, config; no feature imports another.
 */
const PROJECT = ['contract', 'functions', 'frontend', 'infra', 'local', 'operator', 'bench', 'test'];
const anyOf = (folders) => `^(${folders.join('|')})/`;
const except = (...allowed) => anyOf(PROJECT.filter((folder) => !allowed.includes(folder)));

/** A folder that may import only the folders given (and itself, and packages). */
const importsOnly = (folder, allowed, comment) => ({
  name: `${folder}-imports-only-${allowed.join('-') || 'itself'}`,
  comment,
  severity: 'error',
  from: { path: `^${folder}/` },
  to: { path: except(folder, ...allowed) },
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    importsOnly(
      'contract',
      [],
      'contract/ is what the deployables share: it imports nothing of the project.',
    ),
    importsOnly('functions', ['contract'], 'The Lambda code imports only the contract.'),
    importsOnly('frontend', ['contract'], 'The page and its build import only the contract.'),
    importsOnly(
      'infra',
      ['contract'],
      'The stack imports only the contract: it takes the page and the functions as built folders.',
    ),
    importsOnly(
      'local',
      ['functions', 'contract'],
      'The runner runs the real functions, nothing of the stack.',
    ),
    importsOnly(
      'operator',
      ['local', 'functions', 'contract'],
      'The operator’s tool works on the runner’s store or AWS.',
    ),
    {
      name: 'bench-never-imports-test',
      comment: 'Only tests import the tests’ helpers.',
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular',
      comment: 'No module reaches itself through its imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-resolvable',
      comment: 'Every import resolves (aliases included), so no arrow escapes these rules.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'feature-imports-no-other-feature',
      comment: 'A feature of the page imports shared parts, never another feature.',
      severity: 'error',
      from: { path: '^frontend/src/features/([^/]+)/' },
      to: { path: '^frontend/src/features/', pathNot: '^frontend/src/features/$1/' },
    },
    {
      name: 'shared-page-parts-import-no-feature',
      comment: 'components/, i18n/ and config/ are shared by the features: they import none, nor a page.',
      severity: 'error',
      from: { path: '^frontend/src/(components|i18n|config)/' },
      to: { path: '^frontend/src/(features|pages)/' },
    },
    {
      name: 'features-import-no-page',
      comment: 'Pages put features together; a feature does not import a page.',
      severity: 'error',
      from: { path: '^frontend/src/features/' },
      to: { path: '^frontend/src/pages/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Resolves `@/…` (tsconfig.json's paths) and `#contract/…` (package.json's imports) as the tools do.
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
