// @ts-check
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** Layer 0 packages (STYLE.md "Layers") import no other workspace package. */
const layerZero = ['contract', 'engine', 'auth', 'scheduler', 'events']

const deepImports = {
  group: ['@svcdb/*/src', '@svcdb/*/src/**', '@svcdb/*/dist/**'],
  message:
    "Import another package through its public entry ('@svcdb/<name>'), never its internals.",
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      // no-cycle parses the files it walks; it must know .ts files and their parser.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'no-restricted-imports': ['error', { patterns: [deepImports] }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSEnumDeclaration',
          message: 'Use a string-literal union or an `as const` object.',
        },
        { selector: 'TSModuleDeclaration[kind="namespace"]', message: 'No namespaces.' },
        { selector: 'ExportAllDeclaration', message: 'Name every export of a barrel.' },
        { selector: 'ExportDefaultDeclaration', message: 'No default exports.' },
      ],
    },
  },
  {
    files: ['packages/*/src/**/*.ts', 'packages/*/test/**/*.ts', 'examples/*/src/**/*.ts'],
    rules: { 'import-x/no-relative-packages': 'error' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: layerZero.map((name) => `packages/${name}/src/**/*.ts`),
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@svcdb/engine',
              message: 'Layer-0 packages import no other workspace package.',
            },
          ],
          patterns: [
            deepImports,
            {
              group: [
                '@svcdb/*',
                '!@svcdb/engine',
                '@svcdb/engine/*',
                '!@svcdb/engine/query-language',
              ],
              message:
                "Layer-0 packages import no other workspace package (the contract: only the engine's query vocabulary).",
            },
          ],
        },
      ],
    },
  },
  {
    // STYLE.md "Layers": the query vocabulary has one source, the engine's runtime-neutral
    // subpath; only the contract, which carries it on the wire, imports it.
    files: [
      'packages/engine/src/**/*.ts',
      'packages/auth/src/**/*.ts',
      'packages/scheduler/src/**/*.ts',
      'packages/events/src/**/*.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            deepImports,
            { group: ['@svcdb/*'], message: 'Layer-0 packages import no other workspace package.' },
          ],
        },
      ],
    },
  },
  {
    // STYLE.md "Layers": the scale-out drivers implement the engine's ports and nothing else.
    files: ['packages/postgres/src/**/*.ts', 'packages/s3/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            deepImports,
            {
              group: ['@svcdb/*', '!@svcdb/engine'],
              message: "Drivers implement the engine's ports: they import only @svcdb/engine.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/client/src/**/*.ts'],
    // `src/node/` is the Node-only entry (`@svcdb/client/node`), the one place for built-ins.
    ignores: ['**/*.test.ts', 'packages/client/src/node/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        'process',
        'Buffer',
        'global',
        'require',
        '__dirname',
        '__filename',
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@svcdb/engine',
              message: "Only '@svcdb/engine/chunking' runs in browsers.",
            },
          ],
          patterns: [
            deepImports,
            { group: ['node:*'], message: 'The client runs in browsers: no Node built-ins.' },
            {
              group: [
                '@svcdb/*',
                '!@svcdb/contract',
                '!@svcdb/events',
                '!@svcdb/engine',
                '@svcdb/engine/*',
                '!@svcdb/engine/chunking',
              ],
              message:
                "The client depends on the contract, the SSE decoder and the engine's browser-safe chunker only.",
            },
            {
              group: ['hono', 'hono/*'],
              message: 'The client never depends on the server framework.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/cli/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [deepImports],
          paths: [
            {
              name: '@svcdb/server',
              message: 'Load the server lazily with import() (only `svcdb start` needs it).',
            },
          ],
        },
      ],
    },
  },
  {
    // STYLE.md "Layers": the console runs in browsers over the client and the contract only.
    files: ['packages/console/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-globals': ['error', 'process', 'Buffer', 'global', 'require'],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            deepImports,
            { group: ['node:*'], message: 'The console runs in browsers: no Node built-ins.' },
            {
              group: ['@svcdb/*', '!@svcdb/client', '!@svcdb/contract'],
              message: 'The console imports only @svcdb/client and @svcdb/contract.',
            },
          ],
        },
      ],
    },
  },
  {
    // Build and tool configs are the only default exports allowed.
    files: ['**/*.config.ts', '**/*.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  prettier,
)
