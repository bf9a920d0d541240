import js from '@eslint/js';
import lingui from 'eslint-plugin-lingui';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

/** Where the servers' SQL may be: repositories, schemas, migrations and the API's database plumbing. */
const SQL_FILES = ['**/*-repository.ts', '**/schema.ts', '**/migrations.ts', 'apps/api/src/db/**'];
/** The files that build the repositories from the database (and hand the provider its view of it). */
const COMPOSITION_ROOTS = [
  'apps/api/src/{app,server,services}.ts',
  'apps/idp/src/{identity-provider,openid-provider}.ts',
];
const SQL_ELSEWHERE =
  'SQL belongs in a *-repository.ts of the module: take that repository, not the database.';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**', 'bench/results/**'] },
  js.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    // One program for every file (tsconfig.eslint.json), not one per project: the projects' programs
    // each held and typed the sources they share (the tests' program the servers' too), a third of
    // ESLint's time. Type checking itself stays with tsc -b and each project's own options.
    languageOptions: { parserOptions: { project: ['./tsconfig.eslint.json'], tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Fastify plugins, hooks and handlers are async by contract, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
      // The code passes closures, not methods that use `this` (and Kysely's expression builder is made
      // to be destructured), so the rule would only ask for noise.
      '@typescript-eslint/unbound-method': 'off',
      // react-hook-form's handleSubmit returns a promise that it handles itself.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // node:test's describe/it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after'],
            },
          ],
        },
      ],
    },
  },
  {
    // Plain Node scripts (TypeScript files get their globals from @types/node).
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Every word a borrower reads is in the catalogue (Lingui's macros), in both languages: a literal
    // in a component fails lint. What is not read (class names, ids, routes, keys) is told apart by
    // where it is written, and strings without a space that start in lower case are taken as such.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    // The shared messages are known by the English the API and the schemas write.
    ignores: ['apps/web/src/i18n/shared-messages.ts', 'apps/web/src/i18n/in-portal-language.ts'],
    ...lingui.configs['flat/recommended'],
    rules: {
      ...lingui.configs['flat/recommended'].rules,
      'lingui/no-unlocalized-strings': [
        'error',
        {
          useTsTypes: true,
          // Beside words without a space that start in lower case: identifiers in camel case, tokens in
          // capitals with underscores (MFA_REQUIRED), SVG path data.
          ignore: ['^(?![A-Z])\\S+$', '^[A-Z][a-z]+[A-Z]\\w*$', '^[A-Z0-9]+(_[A-Z0-9]+)+$', '^M-?\\d'],
          ignoreNames: [
            {
              regex: {
                pattern:
                  'className|Class$|Id$|^id$|testId|^data-|^aria-(hidden|live|haspopup|current)$|^(to|href|src|type|role|rel|target|name|method|lang|key|autoComplete|inputMode|enterKeyHint|pattern|accept|mode|variant|tone|kind|status|reason|state|notice|code)$',
                flags: 'i',
              },
            },
          ],
          ignoreFunctions: [
            'Error',
            'console.*',
            'Intl.*',
            'new URL',
            'URLSearchParams',
            'localStorage.*',
            'sessionStorage.*',
            '*.querySelector',
            '*.querySelectorAll',
            '*.getElementById',
            '*.setAttribute',
            '*.getAttribute',
            'import',
            'fetch',
            '*.startsWith',
            '*.endsWith',
            '*.includes',
            '*.split',
            '*.join',
            '*.replace',
            '*.set',
            '*.get',
            '*.has',
            '*.delete',
            'matchMedia',
            'addEventListener',
            'removeEventListener',
            '*.addEventListener',
            '*.removeEventListener',
          ],
          ignoreMethodsOnTypes: ['Map.get', 'Map.has', 'Set.has'],
        },
      ],
    },
  },
  {
    // The web app never reaches into server code.
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '@customer-core/api*',
            '@customer-core/idp*',
            '@customer-core/database*',
            // What only the servers share.
            '@customer-core/contracts/server',
          ],
        },
      ],
    },
  },
  {
    // SQL lives in a module's *-repository.ts (and the schema, migrations and db/ plumbing): a service
    // is handed repositories, never the database, so where a statement runs can be found by its name.
    files: ['apps/api/src/**/*.ts', 'apps/idp/src/**/*.ts'],
    ignores: [...SQL_FILES],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)$/]',
          message: SQL_ELSEWHERE,
        },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: SQL_ELSEWHERE },
        {
          selector: "CallExpression[callee.property.name='transaction'][arguments.length=0]",
          message: SQL_ELSEWHERE,
        },
      ],
    },
  },
  {
    // Nor does anything else take the database: only the composition roots, which build repositories.
    files: ['apps/api/src/**/*.ts', 'apps/idp/src/**/*.ts'],
    ignores: [...SQL_FILES, ...COMPOSITION_ROOTS],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'kysely', message: SQL_ELSEWHERE }] }],
    },
  },
);
