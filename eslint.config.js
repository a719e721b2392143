// Medusa's recommended conventions (workflows, routes, middlewares, subscribers, jobs, admin), plus the
// few TypeScript rules our style guide makes hard rules (no `any`, no `@ts-ignore`).
const medusa = require("@medusajs/eslint-plugin")
const tseslint = require("typescript-eslint")

module.exports = [
  { ignores: ["node_modules/**", ".medusa/**", "dist/**", "coverage/**", ".test-results/**", ".demo/**"] },
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
]
