// The arrows between the project's folders (README's layout diagram draws them); test/ imports anything.
const PROJECT = ['contract', 'functions', 'frontend', 'infra', 'local', 'operator', 'bench', 'test'];

/** What each folder may import besides itself and packages, and why. */
const ARROWS = {
  contract: [[], 'contract/ is what the deployables share: it imports nothing of the project.'],
  functions: [['contract'], 'The Lambda code imports only the contract.'],
  frontend: [['contract'], 'The page and its build import only the contract.'],
  infra: [['contract'], 'The stack imports only the contract: it takes the page and the functions as built.'],
  local: [['functions', 'contract'], 'The runner runs the real functions, nothing of the stack.'],
  operator: [['local', 'functions', 'contract'], 'The operator’s tool works on the runner’s store or AWS.'],
  bench: [PROJECT.filter((folder) => folder !== 'test'), 'Only tests import the tests’ helpers.'],
};

const rule = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...Object.entries(ARROWS).map(([folder, [allowed, comment]]) => {
      const others = PROJECT.filter((other) => other !== folder && !allowed.includes(other));
      return rule(`${folder}-imports`, comment, { path: `^${folder}/` }, { path: `^(${others.join('|')})/` });
    }),
    rule('no-circular', 'No module reaches itself through its imports.', {}, { circular: true }),
    rule('not-resolvable', 'Every import resolves (aliases too).', {}, { couldNotResolve: true }),
    // Inside the page (frontend/src): pages → features → components, i18n, config.
    rule(
      'feature-imports-no-other-feature',
      'A feature of the page imports shared parts, never another feature.',
      { path: '^frontend/src/features/([^/]+)/' },
      { path: '^frontend/src/features/', pathNot: '^frontend/src/features/$1/' },
    ),
    rule(
      'shared-page-parts-import-no-feature',
      'components/, i18n/ and config/ are shared by the features: they import none, nor a page.',
      { path: '^frontend/src/(components|i18n|config)/' },
      { path: '^frontend/src/(features|pages)/' },
    ),
    rule(
      'features-import-no-page',
      'Pages put features together; a feature does not import a page.',
      { path: '^frontend/src/features/' },
      { path: '^frontend/src/pages/' },
    ),
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
