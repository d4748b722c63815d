import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Layer boundaries (docs/ARCHITECTURE.md): common/ is shared by the browser bundle and the
// server, so it may import neither of them nor Node built-ins; the client never reaches into
// the server. Exported so the test in eslint.boundaries.test.ts checks the same patterns.
export const commonBoundary = [
  {
    group: ['**/client', '**/client/**', '**/server', '**/server/**'],
    message: 'common/ is shared by client and server: it imports neither.',
  },
  {
    regex: '^node:',
    message: 'common/ runs in the browser too: Node built-ins belong in server/.',
  },
];
export const clientBoundary = [
  {
    group: ['**/server', '**/server/**'],
    message: 'client/ never imports server/: share code through common/.',
  },
];

// Classic zod keeps its methods on prototypes, so a bundle that imports it carries all of it: the
// schemas the browser loads are written with zod/mini (docs/decisions/023). The server may use either.
const classicZodMessage =
  "common/ and client/ are in the browser bundle: import { z } from 'zod/mini' (docs/decisions/023).";
export const classicZod = ['zod', 'zod/v4', 'zod/v4/classic', 'zod/v3', 'zod/classic'].map((name) => ({
  name,
  message: classicZodMessage,
}));

// The sign-in pages (public.html, decision 024) and the modules they share with the application do
// without the application's libraries: a small translator in place of i18next (decision 054), their
// own widgets and router. An import of these here would put the library in their bundle.
export const signInFiles = [
  'client/public/**/*.{ts,tsx}',
  'client/pages/login/**/*.{ts,tsx}',
  'client/pages/password-lost/**/*.{ts,tsx}',
  'client/pages/reset-password/**/*.{ts,tsx}',
  'client/pages/sign-up/**/*.{ts,tsx}',
  'client/components/captcha/**/*.{ts,tsx}',
  'client/components/{CookieNotice,SkipLink,LogoMark}.tsx',
  'client/components/{forms,language-switch-text,use-schema-form,typed-before-hydration,use-delayed-visible,use-focus-first-invalid}.ts',
  'client/app/{title,use-interface-locale,routing,storage,reload,styles-loaded}.ts',
  'client/app/ErrorBoundaryBase.tsx',
  'client/i18n/{load,translate}.ts',
  'client/i18n/use-translation.tsx',
  'client/api/{auth,client,query-options,signup}.ts',
];
const signInMessage =
  'The sign-in pages carry no i18next, Mantine components, react-router nor react-query (decisions 024, 054): ' +
  "use '../i18n/use-translation', client/public/ui.tsx and router.tsx.";
export const signInOnly = ['i18next', 'react-i18next', '@mantine/core', 'react-router', '@tanstack/react-query'].map(
  (name) => ({ name, message: signInMessage, allowTypeImports: true }),
);

// The whole client translates with client/i18n/translate.ts (decision 074): i18next is the server's.
export const clientI18next = ['i18next', 'react-i18next'].map((name) => ({
  name,
  message:
    "The client translates without i18next (decision 074): use useTranslation from 'client/i18n/use-translation'.",
}));

// Mantine's Tooltip brings floating-ui into the page's first paint: the portal's comes after it
// (client/components/Tooltip.tsx, decision 092).
export const mantineTooltip = [
  {
    name: '@mantine/core',
    importNames: ['Tooltip'],
    message:
      "Use Tooltip from 'client/components/Tooltip': Mantine's brings floating-ui before the first paint (decision 092).",
  },
];
const tooltipFiles = ['client/components/tooltip-code.ts', 'client/components/Tooltip.test.tsx'];

// An event read inside a state updater, e.g. setValues((v) => ({ ...v, name: e.currentTarget.value })).
export const eventInUpdater =
  'CallExpression[callee.name=/^set[A-Z]/] > :function MemberExpression[property.name=/^(currentTarget|target)$/]';
const eventInUpdaterMessage =
  'Read the event before the state update: a deferred updater finds event.currentTarget null and crashes.';

// Queries live in repositories (docs/decisions/059): a service reads as the rule it applies, and
// every query of a table can be found, reviewed and indexed in one place. Files named repo.ts or
// store.ts (or ending in -repo.ts, -store.ts), server/db/ and the tests may build and run SQL;
// elsewhere in server/ only a transaction is opened (db.transaction().execute(...)).
export const repositoryFiles = [
  'server/**/{repo,store}.ts',
  'server/**/*-{repo,store}.ts',
  'server/db/**',
  'server/test/**',
  'server/**/*.test.ts',
];
const sqlMessage =
  'SQL lives in repositories (repo.ts or store.ts, decision 059): call a repository function, so each ' +
  "table's queries stay in one place where they can be reviewed and indexed.";
export const sqlOutsideRepositories = [
  {
    selector:
      'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)$/]',
    message: sqlMessage,
  },
  {
    // running a query; opening a transaction (db.transaction().execute(...)) is the service's job
    selector:
      'CallExpression[callee.property.name=/^(execute|executeTakeFirst|executeTakeFirstOrThrow)$/]:not([callee.object.callee.property.name=/^(transaction|setIsolationLevel|setAccessMode)$/])',
    message: sqlMessage,
  },
];
export const sqlTag = [{ name: 'kysely', importNames: ['sql'], message: sqlMessage }];

// The data layer knows no feature (decision 059): a migration that imported feature code would change
// when the feature does, after it ran; the seed, which writes through the modules, sits in server/seed/.
export const dataBoundary = [
  {
    group: ['**/modules', '**/modules/**', '**/seed', '**/seed/**'],
    message:
      'server/db/ is the data layer and imports no feature (decision 059): a migration carries its own frozen copy of what it needs.',
  },
];

// Bare Node built-in names ('fs', 'crypto') as well as 'node:fs', for common/.
import { builtinModules } from 'node:module';
const bareBuiltins = builtinModules.filter((name) => !name.startsWith('_'));

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-server/',
      'node_modules/',
      'data/',
      'test-results/',
      'playwright-report/',
      'coverage/',
      'eslint-fixtures/',
      '.cache/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `any` is allowed (tests read inject().json()), so the rules that follow `any` around
      // would only restate that choice.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // Style only (tests write `getByRole(...) as HTMLInputElement`); not worth the churn.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Fastify plugins and hooks are async by contract even when their body is not.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Plain JavaScript (configs, scripts) is outside the TypeScript project.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...bareBuiltins.map((name) => ({ name, message: commonBoundary[1].message })), ...classicZod],
          patterns: commonBoundary,
        },
      ],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [...classicZod, ...clientI18next, ...mantineTooltip], patterns: clientBoundary },
      ],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // React may run a state updater later, in its render, when the event's currentTarget is null:
      // read the event in the handler (forms use @mantine/form, decision 019), never in the updater.
      'no-restricted-syntax': ['error', { selector: eventInUpdater, message: eventInUpdaterMessage }],
    },
  },
  {
    // where Mantine's Tooltip is fetched from, and the test that holds the portal's to it
    files: tooltipFiles,
    rules: {
      'no-restricted-imports': ['error', { paths: [...classicZod, ...clientI18next], patterns: clientBoundary }],
    },
  },
  {
    // holds the translator to i18next's output for every text
    files: ['client/i18n/translate.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: classicZod, patterns: clientBoundary }],
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: repositoryFiles,
    rules: {
      'no-restricted-imports': ['error', { paths: sqlTag }],
      'no-restricted-syntax': ['error', ...sqlOutsideRepositories],
    },
  },
  {
    files: ['server/db/**/*.ts'],
    ignores: ['server/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: dataBoundary }],
    },
  },
  {
    files: signInFiles,
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...classicZod, ...signInOnly], patterns: clientBoundary }],
    },
  },
);
