// Medusa's recommended conventions (workflows, routes, middlewares, subscribers, jobs, admin), plus the
// few TypeScript rules our style guide makes hard rules (no `any`, no `@ts-ignore`).
const medusa = require("@medusajs/eslint-plugin")
const tseslint = require("typescript-eslint")

module.exports = [
  { ignores: ["node_modules/**", ".medusa/**", "dist/**", "coverage/**", ".test-results/**", ".demo/**", "examples/**"] },
  ...medusa.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parser: tseslint.parser },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/ban-ts-comment": ["error", { "ts-ignore": true, "ts-nocheck": true }],
    },
  },
  {
    // The gateway client, the sandbox, the storefront kit, the benchmark and the repo scripts never import Medusa
    // (they run on their own), so Medusa's error class is not theirs to throw.
    files: ["src/gateway/**", "src/sandbox/**", "src/storefront/**", "bench/**", "scripts/**", "*.config.js", "integration-tests/*.js"],
    rules: { "@medusajs/use-medusa-error-not-generic-error": "off" },
  },
]
