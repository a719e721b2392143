import path from "path"
import ts from "typescript"
import { checkUseClient } from "../../../scripts/storefront-directives"

/**
 * Compiles the kit in memory with its real build config (tsconfig.build.json) and checks what
 * `npm run build:storefront` would write: the "use client" directives Next.js needs, and the
 * imports each entry may have.
 */
const kitDir = path.resolve(__dirname, "..")
let emitted: Record<string, string> = {}

beforeAll(() => {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(kitDir, "tsconfig.build.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
    },
  })
  if (parsed === undefined) throw new Error("tsconfig.build.json could not be read")
  const program = ts.createProgram(parsed.fileNames, parsed.options)
  const outDir = parsed.options.outDir as string
  const result = program.emit(undefined, (fileName, text) => {
    emitted[path.relative(outDir, fileName).split(path.sep).join("/")] = text
  })
  const errors = ts.getPreEmitDiagnostics(program).concat(result.diagnostics)
  if (errors.length > 0) {
    throw new Error(ts.formatDiagnostics(errors, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => kitDir, getNewLine: () => "\n" }))
  }
}, 180_000)

afterAll(() => {
  emitted = {}
})

const jsFiles = (prefix: string): string[] => Object.keys(emitted).filter((file) => file.startsWith(prefix) && file.endsWith(".js"))

/** Bare module specifiers a file imports (`from "react"`), not its relative ones. */
const bareImports = (text: string): string[] =>
  [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((match) => match[1] as string).filter((specifier) => !specifier.startsWith("."))

describe("the built storefront kit", () => {
  it("keeps \"use client\" as the first statement of every component and hook file", () => {
    const clientFiles = [...jsFiles("components/"), ...jsFiles("hooks/")]
    expect(clientFiles.length).toBeGreaterThanOrEqual(11)
    for (const file of clientFiles) {
      expect(emitted[file]?.startsWith('"use client";')).toBe(true)
    }
  })

  it("has no \"use client\" in the entries and the pure helpers", () => {
    expect(checkUseClient(emitted)).toEqual([])
    expect(emitted["server.js"]?.startsWith('"use client"')).toBe(false)
    expect(emitted["index.js"]?.startsWith('"use client"')).toBe(false)
  })

  it("emits type declarations for both entries", () => {
    expect(Object.keys(emitted)).toEqual(expect.arrayContaining(["index.d.ts", "server.d.ts", "types.d.ts"]))
  })

  it("keeps the server entry free of React, next and Node modules: only decimal.js outside the kit", () => {
    const serverSide = ["server.js", "types.js", ...jsFiles("server/"), ...jsFiles("lib/")]
    const imports = new Set(serverSide.flatMap((file) => bareImports(emitted[file] ?? "")))
    expect([...imports]).toEqual(["decimal.js"])
  })

  it("imports no next, no @medusajs package and no Node module anywhere", () => {
    const imports = new Set(Object.keys(emitted).filter((file) => file.endsWith(".js")).flatMap((file) => bareImports(emitted[file] ?? "")))
    expect([...imports].sort()).toEqual(["decimal.js", "qrcode", "react", "react/jsx-runtime"])
  })
})
