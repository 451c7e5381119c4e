// One linter for the whole repository: the layering (which folder may import which), no import
// cycles, the type-only use of the API from the PWA, React's hook rules, and a lean set of
// correctness rules. Formatting is Prettier's job (.prettierrc.json), never a lint rule.
// CONTRIBUTING.md explains the layers these rules enforce; scripts/lint-rules.test.ts proves that a
// bad import of each kind fails.
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = dirname(fileURLToPath(import.meta.url));

// Each PWA feature folder may not import another one: one zone per folder, read from disk so a
// new feature is covered without touching this file.
const pwaFeatures = readdirSync(join(root, 'pwa/src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const layerZones = [
  // API: lib is below the features; db is below everything; the API never reaches into the PWA.
  {
    target: './api/src/lib',
    from: './api/src/features',
    message: 'api/src/lib is below the features: move the shared code into lib or pass it in.',
  },
  { target: './api', from: './pwa', message: 'The API never imports the PWA.' },
  { target: './db/src', from: ['./api', './pwa'], message: 'db/src is the lowest layer: it imports neither the API nor the PWA.' },
  // Inside a feature: routes -> services -> repositories, never upwards.
  {
    target: './api/src/**/*.repository.ts',
    from: ['./api/src/**/*.service.ts', './api/src/**/*.routes.ts'],
    message: 'A repository only talks to the database: the service calls it, not the other way round.',
  },
  {
    target: './api/src/**/*.service.ts',
    from: './api/src/**/*.routes.ts',
    message: 'A service never imports routes: the routes call the service.',
  },
  // PWA: lib -> data -> components -> features -> app.
  {
    target: './pwa/src/lib',
    from: ['./pwa/src/offline', './pwa/src/data', './pwa/src/features', './pwa/src/components', './pwa/src/app'],
    message: 'pwa/src/lib is the lowest PWA layer: it imports no offline store, data module, feature, component or app file.',
  },
  {
    // The offline store sits beside lib, under the data layer that reads from it.
    target: './pwa/src/offline',
    from: ['./pwa/src/data', './pwa/src/features', './pwa/src/components', './pwa/src/app'],
    message: 'pwa/src/offline sits under the data layer: it imports only lib, never a data module, feature, component or app file.',
  },
  {
    target: './pwa/src/data',
    from: ['./pwa/src/features', './pwa/src/components', './pwa/src/app'],
    message: 'The data layer (one module per server resource) knows no screen: it imports no feature, component or app file.',
  },
  {
    target: './pwa/src/components',
    from: ['./pwa/src/features', './pwa/src/app'],
    message: 'Shared components import no feature or app file: pass what they need as props.',
  },
  ...pwaFeatures.map((feature) => ({
    target: `./pwa/src/features/${feature}`,
    from: './pwa/src/features',
    except: [`./${feature}`],
    message: 'A feature never imports another feature: move what both need into components, data or lib.',
  })),
];

// File names are kebab-case, with dotted roles after the name (`service-type.repository.ts`,
// `use-booking-form.ts`, `2026-11-22-001-initial.ts`): one rule for every source file.
const KEBAB_FILE = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)*\.(ts|tsx|js|mjs)$/;
const bookwell = {
  rules: {
    'kebab-case-filename': {
      meta: {
        type: 'suggestion',
        schema: [],
        messages: { name: 'File names are kebab-case ({{name}}): see CONTRIBUTING.md, "Naming files".' },
      },
      create(context) {
        return {
          Program(node) {
            const name = basename(context.filename);
            if (!KEBAB_FILE.test(name)) context.report({ node, messageId: 'name', data: { name } });
          },
        };
      },
    },
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'bench/results/**',
      'test-results/**',
      'playwright-report/**',
      'pwa/e2e/artifacts/**',
      'pwa/dev-dist/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      // The TypeScript-aware parser/extension settings from import-x's preset (without them .ts files are
      // not followed and no-cycle sees nothing), with the resolver below instead of its legacy one.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/external-module-folders': importX.flatConfigs.typescript.settings['import-x/external-module-folders'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['*/tsconfig.json'], alwaysTryTypes: true, noWarnOnMultipleProjects: true }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: layerZones }],
      'import-x/no-self-import': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['api/src/**/*.{ts,tsx}', 'pwa/src/**/*.{ts,tsx}', 'pwa/e2e/**/*.ts', 'db/src/**/*.ts', 'scripts/**/*.ts'],
    plugins: { bookwell },
    rules: { 'bookwell/kebab-case-filename': 'error' },
  },
  {
    // Migrations take Kysely<any> (frozen in time, not tied to today's schema); tests poke at JSON bodies.
    files: ['db/src/migrations/**', '**/*.test.ts', '**/*.test.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Services take plain values: Hono (Context, HTTPException) stays in the routes and lib.
    files: ['api/src/**/*.service.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['hono', 'hono/*', '@hono/*'], message: 'Services take plain values, not a Hono Context: keep Hono in the routes.' },
          ],
        },
      ],
    },
  },
  {
    files: ['pwa/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
  },
  {
    // The PWA sees the API only as types (hc<AppType>): no API code may reach the bundle.
    files: ['pwa/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@bookwell/api', '@bookwell/api/*', '@bookwell/db', '@bookwell/db/*'],
              allowTypeImports: true,
              message: 'The PWA imports the API only as types (import type ...): see pwa/src/lib/rpc.ts.',
            },
          ],
        },
      ],
    },
  },
);
