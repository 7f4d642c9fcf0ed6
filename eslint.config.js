import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';

// Every feature of the web app: each may use shared code (components/, lib/) but no other feature.
const FEATURES = fs
  .readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

// Every module of the server (server/modules/<name>): each may use another only through its service or its pure files.
const SERVER_MODULES = fs
  .readdirSync(new URL('./server/modules', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

// The server's infrastructure, below every module: modules use it, it uses no module (app.ts wires the two).
const SERVER_INFRASTRUCTURE = ['./server/db', './server/lib', './server/http', './server/events', './server/notifications', './server/jobs'];

// How eslint-plugin-import reads our files: imports carry their .ts/.tsx extension, so the plain node resolver finds
// every file. Without the extensions and parsers it reads only .js files when following imports, and no-cycle sees no
// cycle in .ts/.tsx.
const IMPORT_SETTINGS = {
  'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
  'import/extensions': ['.ts', '.tsx', '.js'],
  'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
};
/** A block of import-direction rules: `zones` for import/no-restricted-paths, no cycles, nothing unresolvable. */
const importDirection = ({ files, ignores = [], zones }) => ({
  files,
  ignores,
  plugins: { import: importPlugin },
  settings: IMPORT_SETTINGS,
  rules: {
    // A restriction only applies to imports that resolve: an unresolvable one must fail rather than slip through.
    'import/no-unresolved': 'error',
    'import/no-cycle': 'error',
    'import/no-restricted-paths': ['error', { zones }],
  },
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'web/public/**', 'e2e/screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-object-type': 'off',
    },
  },
  {
    files: ['web/src/**/*.tsx', 'web/src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  // The web app's import direction: app → features → shared (components/, lib/), never feature → feature
  // (bulletproof-react).
  importDirection({
    files: ['web/src/**/*.tsx', 'web/src/**/*.ts'],
    zones: [
      {
        target: './web/src/features',
        from: './web/src/app',
        message: 'Features do not import the app layer: shared code belongs in web/src/lib or web/src/components.',
      },
      {
        target: ['./web/src/components', './web/src/lib'],
        from: ['./web/src/app', './web/src/features'],
        message: 'Shared code (components/, lib/) imports neither the app layer nor a feature.',
      },
      ...FEATURES.map((name) => ({
        target: `./web/src/features/${name}`,
        from: './web/src/features',
        except: [`./${name}`],
        message: 'A feature does not import another feature: compose them in web/src/app, or move the shared piece to components/ or lib/.',
      })),
      {
        target: './web/src',
        from: './server',
        message: 'The web app shares only contract/ with the server.',
      },
    ],
  }),
  // The server's import direction: contract ← infrastructure (db, lib, http, events, notifications, jobs) ← modules ←
  // app.ts. A module uses another only through its service (*.service.ts) or its pure files (*.policy.ts, oncall.ts,
  // integration-keys.ts…), never its repository, routes or plugin. Tests are left out: like app.ts, they wire modules
  // and infrastructure together (server/architecture.test.ts checks the rules and the folder graph).
  importDirection({
    files: ['server/**/*.ts', 'contract/**/*.ts'],
    ignores: ['**/*.test.ts'],
    zones: [
      {
        target: './contract',
        from: ['./server', './web', './scripts', './e2e'],
        message: 'contract/ is shared by the server and the web app and imports nothing of theirs.',
      },
      {
        target: SERVER_INFRASTRUCTURE,
        from: './server/modules',
        message: 'Infrastructure imports no module: take what it needs as a parameter (app.ts passes it in), or move it into infrastructure.',
      },
      ...SERVER_MODULES.map((name) => ({
        target: `./server/modules/${name}`,
        from: [`./server/modules/!(${name})/**/*.repository.ts`, `./server/modules/!(${name})/**/*.routes.ts`, `./server/modules/!(${name})/**/*.plugin.ts`],
        message: "A module uses another only through its service (*.service.ts) or its pure files, never its repository, routes or plugin.",
      })),
      {
        target: './server',
        from: './web',
        message: 'The server shares only contract/ with the web app.',
      },
    ],
  }),
  // Only server/notifications reaches a person: the mail, push and SMS providers are spoken to there alone.
  {
    files: ['server/**/*.ts'],
    ignores: ['**/*.test.ts', 'server/notifications/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'nodemailer', message: 'Only server/notifications sends mail: use the notifier (or the mailer in deps).' },
            { name: 'web-push', message: 'Only server/notifications sends push notifications: use the notifier.' },
          ],
        },
      ],
    },
  },
);
