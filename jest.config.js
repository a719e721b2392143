// One jest config, split by test type (TEST_TYPE=unit | integration:contract | integration:http).
// Without TEST_TYPE every type runs, as separate projects.
const { loadEnv } = require("@medusajs/framework/utils")
loadEnv("test", process.cwd())

// @medusajs/test-utils reads these at require() time, so they are set here, not in globalSetup.
// DB_HOST must contain "localhost": test-utils turns SSL on for any other host.
require("./integration-tests/db-env").applyDbEnv()

const transform = {
  "^.+\\.[jt]sx?$": [
    "@swc/jest",
    {
      jsc: {
        parser: { syntax: "typescript", tsx: true, decorators: true },
        target: "es2021",
        // The storefront kit's .tsx uses the automatic JSX runtime (no React import), as its tsc build does.
        transform: { react: { runtime: "automatic" } },
      },
    },
  ],
}

const base = {
  transform,
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "tsx", "json"],
  // examples/ are separate apps with their own node_modules (examples/storefront: Next.js).
  modulePathIgnorePatterns: ["dist/", "<rootDir>/.medusa/", "<rootDir>/examples/"],
}

const projects = {
  unit: {
    ...base,
    displayName: "unit",
    testMatch: ["<rootDir>/src/**/__tests__/**/*.unit.spec.[jt]s?(x)"],
    // The storefront kit is ESM and imports its own files as "./x.js" (what Node needs at run time);
    // in the tests those specifiers point at the .ts sources.
    moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  },
  "integration:contract": {
    ...base,
    displayName: "contract",
    testMatch: ["<rootDir>/integration-tests/contract/**/*.spec.[jt]s"],
  },
  "integration:http": {
    ...base,
    displayName: "http",
    testMatch: ["<rootDir>/integration-tests/http/**/*.spec.[jt]s"],
    setupFiles: ["<rootDir>/integration-tests/setup.js"],
    globalSetup: "<rootDir>/integration-tests/global-setup.js",
    globalTeardown: "<rootDir>/integration-tests/global-teardown.js",
  },
}

const type = process.env.TEST_TYPE
if (type && !projects[type]) {
  throw new Error(`TEST_TYPE=${type} is not one of: ${Object.keys(projects).join(", ")}`)
}

module.exports = type ? projects[type] : { projects: Object.values(projects) }
