import { readdirSync, readFileSync, statSync } from "fs"
import { join, relative } from "path"
import ts from "typescript"

/**
 * The admin UI reads the admin API's answers as the types src/api/admin/crypto/types.ts derives from
 * the server's declarations. The admin is bundled for the browser
 * (docs/architecture.md#admin), so that module must vanish when compiled, and every admin import of
 * it must be `import type`: otherwise the bundle would pull the server code behind it.
 */
const root = join(__dirname, "..", "..", "..", "..", "..")
const typesModule = join(root, "src", "api", "admin", "crypto", "types.ts")

const emitted = (file: string): string =>
  ts
    .transpileModule(readFileSync(file, "utf8"), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true } })
    .outputText.replace(/\/\/# sourceMappingURL=.*$/m, "")
    .trim()

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : []
  })

describe("the admin API's answer types (src/api/admin/crypto/types.ts)", () => {
  it("compile to nothing: the module holds type imports and type declarations only", () => {
    expect(emitted(typesModule)).toBe("export {};")
  })

  it("are imported by the admin with `import type` only", () => {
    const imports = sourceFiles(join(root, "src", "admin")).flatMap((file) => {
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, false)
      return source.statements
        .filter((s): s is ts.ImportDeclaration | ts.ExportDeclaration => ts.isImportDeclaration(s) || ts.isExportDeclaration(s))
        .filter((s) => s.moduleSpecifier !== undefined && ts.isStringLiteral(s.moduleSpecifier) && /api\/admin\/crypto\/types$/.test(s.moduleSpecifier.text))
        .map((s) => ({ file: relative(root, file), typeOnly: ts.isImportDeclaration(s) ? s.importClause?.isTypeOnly === true : s.isTypeOnly }))
    })
    expect(imports.length).toBeGreaterThan(0)
    expect(imports.filter((i) => !i.typeOnly)).toEqual([])
  })
})
