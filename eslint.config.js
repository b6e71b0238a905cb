// Flat ESLint config for the whole monorepo. `npm run lint` runs with --max-warnings 0.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import path from 'node:path';

/** A feature folder of the web app, with what follows it: ['map', '/world/x'] or null. */
function webFeature(file) {
  const m = file
    .split(path.sep)
    .join('/')
    .match(/\/apps\/web\/src\/features\/([^/]+)(\/.*)?$/);
  return m ? [m[1], m[2] ?? ''] : null;
}

// apps/web features import each other only through the other feature's index.ts.
const featureBoundaries = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      deep: "Import feature '{{feature}}' through its index.ts ('{{entry}}'), not '{{source}}'.",
    },
  },
  create(context) {
    const own = webFeature(context.filename);
    if (!own) return {};
    const check = (sourceNode) => {
      const source = sourceNode?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = webFeature(path.resolve(path.dirname(context.filename), source));
      if (!target || target[0] === own[0]) return;
      if (['', '/', '/index', '/index.ts'].includes(target[1])) return;
      const entry = source.slice(0, source.length - target[1].length);
      context.report({
        node: sourceNode,
        messageId: 'deep',
        data: { feature: target[0], entry, source },
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      'packages/decoders/src/generated/**',
      'bench/results/**',
      'docs/**',
      'data/**',
      'apps/server/data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Shared packages never depend on the applications.
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@tinygs/server', '@tinygs/web', '@tinygs/viewer', '**/apps/**'] },
      ],
    },
  },
  {
    // The browser apps never import server code.
    files: ['apps/web/**/*.{ts,tsx}', 'apps/viewer/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: ['@tinygs/server', '**/apps/server/**'] }],
    },
  },
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    plugins: { web: { rules: { 'feature-boundaries': featureBoundaries } } },
    rules: { 'web/feature-boundaries': 'error' },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@tinygs/web', '**/apps/web/**'] }],
    },
  },
  {
    // Storage by table: every SQL statement of the server lives in repositories/ (by table) or db/
    // (connection, migrations, SQLite settings). Elsewhere the drivers and the query builder are
    // types only, and no query is built or prepared; tests, bench/ and e2e/ are not held to it.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/repositories/**', 'apps/server/src/db/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['kysely', 'pg', 'better-sqlite3'].map((name) => ({
            name,
            allowTypeImports: true,
            message: 'SQL lives in apps/server/src/repositories/ or db/; import types only here.',
          })),
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          // Query builder entries (Kysely), prepared statements and settings (better-sqlite3),
          // and compiled queries run directly.
          selector:
            'CallExpression > MemberExpression.callee > Identifier.property[name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|executeQuery|prepare|pragma)$/]',
          message:
            'SQL lives in apps/server/src/repositories/ or db/: call a repository function here.',
        },
        {
          // better-sqlite3's exec runs SQL text; RegExp#exec (a string that is not a literal) stays allowed.
          selector:
            'CallExpression[arguments.0.type=/^(Literal|TemplateLiteral)$/] > MemberExpression.callee > Identifier.property[name="exec"]',
          message:
            'SQL lives in apps/server/src/repositories/ or db/: call a repository function here.',
        },
        {
          // pg's pool and clients run SQL text.
          selector:
            'CallExpression > MemberExpression.callee:matches([object.name=/^(pool|client)$/], [object.property.name=/^(pool|client)$/]) > Identifier.property[name="query"]',
          message:
            'SQL lives in apps/server/src/repositories/ or db/: call a repository function here.',
        },
      ],
    },
  },
);
