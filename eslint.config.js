import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

/**
 * The PWA's feature areas, and the groups of areas that count as one for the boundary rule below. calls and video
 * are one call client until it is reshaped into one call store (issue 17, item 3).
 */
const FEATURES = fs
  .readdirSync(new URL('./pwa/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const AREA_GROUPS = [['calls', 'video']];
const sameArea = (a, b) => a === b || AREA_GROUPS.some((g) => g.includes(a) && g.includes(b));

/**
 * A feature imports another feature only through its `public.ts` (what it offers the others); whatever else two
 * features share lives in pwa/src/lib, pwa/src/components or api/contract.
 */
const featureBoundaries = FEATURES.map((feature) => {
  const others = FEATURES.filter((f) => !sameArea(f, feature));
  return {
    files: [`pwa/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(features/)?(${others.join('|')})/(?!public$)`,
              message:
                'A feature imports another feature only through its public.ts; move what they share to pwa/src/lib, pwa/src/components or api/contract.',
            },
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  { ignores: ['dist/**', 'dist-ssr/**', '.tmp/**', 'node_modules/**', '.data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // No import cycles in the app's code (type-only ones included).
    files: ['api/**/*.ts', 'db/**/*.ts', 'pwa/**/*.{ts,tsx}', 'sw/**/*.ts'],
    plugins: { import: importX },
    settings: {
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json', '.d.ts'] }),
      ],
    },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['pwa/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  ...featureBoundaries,
  {
    // The database layer (connection, migrations) stands below the server: it never imports from api/.
    files: ['db/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+api/',
              message:
                'db/ does not import from api/: a migration freezes its own lists (tests/api/schema-constants.test.ts checks them).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
