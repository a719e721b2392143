// Medusa's recommended conventions (workflows, routes, middlewares, subscribers, jobs, admin), plus the
// few TypeScript rules our style guide makes hard rules (no `any`, no `@ts-ignore`), plus the import
// boundaries between the folders of src/ (docs/architecture.md).
const { builtinModules } = require("node:module")
const medusa = require("@medusajs/eslint-plugin")
const tseslint = require("typescript-eslint")

// --- Import boundaries ------------------------------------------------------------------------------
// ESLint's own `no-restricted-imports` matches the import string, not the resolved file, so a relative
// import is judged by how far it climbs: a file `depth` folders below src/<folder>/ reaches src/ with
// depth + 1 `../`. One config block per folder and depth says which src/ folders such a climb may land
// in. The rule's options are replaced, not merged, when two blocks match a file, so each block carries
// every restriction of its folder.

const SRC_FOLDERS = [
  "gateway",
  "sandbox",
  "core",
  "providers",
  "modules",
  "workflows",
  "api",
  "jobs",
  "subscribers",
  "admin",
  "storefront",
]
const MAX_DEPTH = 10
const SOURCE_FILES = "*.{ts,tsx,js,jsx,mjs,cjs,mts,cts}"
const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith("_"))
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const nodeBuiltins = (message) => [
  { regex: "^node:", message },
  { regex: `^(?:${NODE_BUILTINS.map(escape).join("|")})(?:/|$)`, message },
]

// The kit's declarations of the store API's answers (src/storefront/types.ts, types only): the kit is
// built and published alone and cannot import the server's, so the routes, steps and core that answer
// in them import them from there (docs/architecture.md#storefront). The rest of the kit stays out.
const KIT_BUT_ITS_ANSWERS = "storefront(?!/types$)"

/**
 * Each folder: `allow` lists where a relative import may land (regex alternatives after `src/`, each
 * anchored by itself), or `deny` lists the src/ folders it may not reach (everything else is allowed);
 * `patterns` adds package-name restrictions; `self` lists the subpaths of our own package name
 * (`medusa-payment-crypto/<subpath>`) the folder may import, as its tests do.
 */
const BOUNDARIES = {
  gateway: {
    allow: ["gateway(?:/|$)"],
    self: ["gateway"],
    message:
      "src/gateway is the gateway client: it imports no Medusa package and nothing from another src/ folder (docs/architecture.md#gateway).",
    patterns: (message) => [{ regex: "^@medusajs/", message }],
  },
  sandbox: {
    allow: ["sandbox(?:/|$)", "gateway(?:/index)?$", "gateway/types(?:/[^/]+)*$", "gateway/core/callbacks$"],
    self: ["sandbox", "gateway"],
    message:
      "src/sandbox imports only src/gateway's public entry, its types and its callback signer (gateway/core/callbacks), and no Medusa package (docs/architecture.md#sandbox).",
    patterns: (message) => [{ regex: "^@medusajs/", message }],
  },
  core: {
    deny: ["api", "workflows", "providers", "jobs", "subscribers", "admin", KIT_BUT_ITS_ANSWERS],
    self: [],
    message:
      "src/core is the Medusa-side core that routes, workflows, jobs and the provider use: it imports none of them (docs/architecture.md#core).",
  },
  providers: {
    deny: ["api", "workflows", "jobs", "subscribers", "admin", "storefront"],
    self: [],
    message:
      "src/providers holds the thin payment provider: it imports src/core, src/modules and src/gateway, never routes, workflows, jobs, subscribers or UI (docs/architecture.md#providers).",
  },
  modules: {
    deny: ["core", "providers", "api", "workflows", "jobs", "subscribers", "admin", "storefront"],
    self: [],
    message:
      "src/modules is our data: it imports no rules (src/core) and nothing from the provider, routes, workflows, jobs, subscribers or UI (docs/architecture.md#modules).",
    patterns: (message) => [{ regex: "^@medusajs/framework$", importNames: ["container"], message: `${message} It reaches no global container either: what it needs is injected.` }],
  },
  workflows: {
    deny: ["providers", "api", "jobs", "subscribers", "admin", KIT_BUT_ITS_ANSWERS],
    self: [],
    message:
      "src/workflows is used by routes, jobs and subscribers, never the other way round, and imports neither the provider (a protocol with it belongs to src/core) nor UI (docs/architecture.md#workflows).",
  },
  api: {
    deny: ["providers", "jobs", "subscribers", "admin", KIT_BUT_ITS_ANSWERS],
    self: [],
    message: "src/api imports no provider, job, subscriber or UI code (docs/architecture.md#api).",
  },
  jobs: {
    deny: ["providers", "api", "subscribers", "admin", "storefront"],
    self: [],
    message: "src/jobs delegate to workflows; they import no provider, route, subscriber or UI code (docs/architecture.md#jobs-and-subscribers).",
  },
  subscribers: {
    deny: ["providers", "api", "jobs", "admin", "storefront"],
    self: [],
    message:
      "src/subscribers delegate to workflows; they import no provider, route, job or UI code (docs/architecture.md#jobs-and-subscribers).",
  },
  admin: {
    // gateway/types/common: the gateway's status vocabulary, declarations with no import (issue 16, item 1).
    // api/admin/crypto/types: the admin API's answers as types only, imported with `import type` (issue 16, item 7).
    allow: ["admin(?:/|$)", "gateway/types/common$", "api/admin/crypto/types$"],
    self: [],
    message:
      "src/admin runs in the browser: it imports only admin code, browser-safe packages and the Medusa admin packages (@medusajs/admin-sdk, ui, js-sdk, icons, types, framework/types), never a Node built-in or server code (docs/architecture.md#admin).",
    patterns: (message) => [
      { regex: "^@medusajs/(?!(?:admin-sdk|ui|js-sdk|icons|types)(?:/|$)|framework/types$)", message },
      ...nodeBuiltins(message),
    ],
  },
  storefront: {
    allow: ["storefront(?:/|$)"],
    self: ["storefront"],
    message:
      "src/storefront is the storefront kit: it runs in the shopper's browser and imports no @medusajs/framework, @medusajs/medusa, @medusajs/ui, Node built-in or other src/ folder (docs/architecture.md#storefront).",
    patterns: (message) => [
      { regex: "^@medusajs/(?:framework|medusa|ui)(?:/|$)", message },
      ...nodeBuiltins(message),
    ],
  },
}

/** The regex for relative imports that leave src/<folder>/ badly from a file `depth` folders below it. */
function relativeEscape(boundary, depth) {
  const up = `^(?:\\.\\./){${depth}}\\.\\.`
  if (boundary.allow) {
    // Reaches src/ itself, climbs above it, or lands in a folder that is not allowed.
    return `${up}(?:$|/(?!${boundary.allow.map((a) => `(?:${a})`).join("|")}))`
  }
  // Climbs above src/, or lands in a denied folder.
  return `${up}/(?:\\.\\.(?:/|$)|(?:${boundary.deny.join("|")})(?:/|$))`
}

function selfImport(boundary) {
  const allowed = boundary.self.map(escape).join("|")
  return allowed ? `^medusa-payment-crypto(?!/(?:${allowed})$)(?:/|$)` : "^medusa-payment-crypto(?:/|$)"
}

const boundaryBlocks = Object.entries(BOUNDARIES).flatMap(([folder, boundary]) => {
  if (!SRC_FOLDERS.includes(folder)) {
    throw new Error(`eslint.config.js: unknown src folder ${folder}`)
  }
  const { message } = boundary
  return Array.from({ length: MAX_DEPTH + 1 }, (_, depth) => ({
    files: [`src/${folder}/${"*/".repeat(depth)}${SOURCE_FILES}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: relativeEscape(boundary, depth), message },
            { regex: selfImport(boundary), message },
            ...(boundary.patterns ? boundary.patterns(message) : []),
          ],
        },
      ],
    },
  }))
})

// --- Floors inside src/core -------------------------------------------------------------------------
// src/core is in floors (src/core/README.md): a file imports its own floor and the floors below it,
// never one above. The root (money, errors, events, coins) is the bottom floor.
const CORE_FLOORS = ["", "config", "payment", "money-out", "books", "notify"]

const coreFloorBlocks = CORE_FLOORS.flatMap((floor, level) => {
  const above = CORE_FLOORS.slice(level + 1)
  if (above.length === 0) return []
  const message = `src/core${floor ? `/${floor}` : ""} may import only its own floor and those below it (${CORE_FLOORS.slice(0, level + 1).map((f) => f || "the root").join(", ")}), never ${above.join(", ")} (src/core/README.md).`
  const base = BOUNDARIES.core
  return Array.from({ length: MAX_DEPTH }, (_, depth) => {
    // A file `depth` folders below src/core/<floor>/ reaches src/core/ with depth + 1 `../` (depth `../` from the root).
    const toCore = floor ? depth + 1 : depth
    const up = toCore === 0 ? "\\./" : `(?:\\.\\./){${toCore}}`
    return {
      files: [`src/core/${floor ? `${floor}/` : ""}${"*/".repeat(depth)}${SOURCE_FILES}`],
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              { regex: relativeEscape(base, depth + 1), message: base.message },
              { regex: selfImport(base), message: base.message },
              { regex: `^${up}(?:${above.join("|")})(?:/|$)`, message },
            ],
          },
        ],
      },
    }
  }).filter((block) => floor !== "" || block.files[0].split("/").length === 3)
})

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
  ...boundaryBlocks,
  ...coreFloorBlocks,
]
