// Lint: ESLint's and typescript-eslint's recommended rules, with type information, over every
// TypeScript folder of the project; formatting is prettier's (npm run format), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'viz/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Config files and the bin/ launcher sit outside tsconfig.json's folders.
        projectService: { allowDefaultProject: ['*.js', '*.ts', 'bin/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Event programs are generators by interface (callers `yield*` them); a step that takes no
      // simulated time, such as releasing a flag or returning a completed handle, has no yield.
      'require-yield': 'off',
      // A program's signature is fixed by its operation; one that needs no arguments names them _args.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read what the CLI prints back with JSON.parse, an untyped document; a wrong shape
      // fails the assertion that reads it, which is the check these rules would add.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // Fakes stand in for the CLI's async loaders and answer at once.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Plain JavaScript is not type-checked.
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly' } },
  },
);
