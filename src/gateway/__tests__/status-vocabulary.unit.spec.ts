import { readdirSync, readFileSync } from "fs"
import path from "path"
import ts from "typescript"
import { GatewayStatus, INVOICE_STATUSES, WITHDRAWAL_STATUSES, WithdrawalResultStatus } from "../index"

/**
 * The gateway's statuses (spec §3) are declared once, in src/gateway/types/common.ts, and every map
 * over them is a `Record<KnownStatus, …>`: a status added to the declaration must fail the build in
 * each of those maps until it is handled. This compiles the files that map
 * statuses with the TypeScript compiler, once as they are and once with a status added to the
 * declaration in memory (the file on disk is never written).
 */

const root = path.resolve(__dirname, "../../..")
const declaration = path.join(root, "src/gateway/types/common.ts")

const sources = readdirSync(path.join(root, "src"), { recursive: true, encoding: "utf8" })
  .filter((file) => /\.tsx?$/.test(file) && !file.split(path.sep).includes("__tests__"))
  .map((file) => [path.join(root, "src", file), readFileSync(path.join(root, "src", file), "utf8")] as const)
// KnownStatus and its plain aliases (the sandbox's `type InvoiceStatus = KnownStatus`) name the same keys.
const keys = ["KnownStatus", ...sources.flatMap(([, text]) => [...text.matchAll(/type (\w+) = KnownStatus;?$/gm)].map((match) => match[1]))]
const statusMap = new RegExp(`(?::|satisfies)\\s*(?:Readonly<\\s*)?Record<\\s*(?:${keys.join("|")})\\s*,`)
/** Every file in src holding a map over the statuses, found by reading them; each must stop compiling when a status is added. */
const MAPS = sources.filter(([, text]) => statusMap.test(text)).map(([file]) => file)

function compilerOptions(): ts.CompilerOptions {
  const configPath = path.join(root, "tsconfig.json")
  const config = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file))
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  return { ...parsed.options, noEmit: true, skipLibCheck: true, incremental: false, composite: false, declaration: false, lib: [...(parsed.options.lib ?? []), "lib.dom.d.ts"] }
}

/** The errors tsc reports in the map files, with `common.ts` replaced by `declarationText`. */
function errorsWith(declarationText: string): Map<string, string[]> {
  const options = compilerOptions()
  const host = ts.createCompilerHost(options, true)
  const read = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) =>
    path.resolve(fileName) === declaration ? ts.createSourceFile(fileName, declarationText, languageVersion, true) : read(fileName, languageVersion, onError, shouldCreate)
  const program = ts.createProgram({ rootNames: MAPS, options, host })
  const errors = new Map<string, string[]>(MAPS.map((file) => [file, []]))
  for (const file of MAPS) {
    const source = program.getSourceFile(file)
    if (source === undefined) {
      throw new Error(`${file} is not in the program`)
    }
    for (const diagnostic of program.getSemanticDiagnostics(source)) {
      errors.get(file)?.push(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
    }
  }
  return errors
}

const original = readFileSync(declaration, "utf8")

describe("the gateway status vocabulary (spec §3)", () => {
  it("is one declaration: the list, the names and the withdrawal results agree", () => {
    expect(INVOICE_STATUSES).toEqual(Object.values(GatewayStatus))
    expect(new Set(INVOICE_STATUSES).size).toBe(9)
    expect(WITHDRAWAL_STATUSES).toEqual(Object.values(WithdrawalResultStatus))
  })

  it(
    "compiles as declared: no map over the statuses has an error",
    () => {
      expect(MAPS.map((file) => path.relative(root, file))).toEqual(expect.arrayContaining(["src/core/payment/payment-state.ts", "src/sandbox/core/invoice-machine.ts"]))
      const errors = errorsWith(original)
      expect(Object.fromEntries([...errors].map(([file, messages]) => [path.relative(root, file), messages]))).toEqual(
        Object.fromEntries(MAPS.map((file) => [path.relative(root, file), []]))
      )
    },
    120_000
  )

  it(
    "a status added to the declaration fails the build in every map until it is handled",
    () => {
      const added = original.replace(`CancelledDuplicate: "cancelled duplicate",`, `CancelledDuplicate: "cancelled duplicate",\n  Refunded: "refunded",`)
      expect(added).not.toBe(original)
      const errors = errorsWith(added)
      for (const file of MAPS) {
        // Each map names the status it misses: "Property 'refunded' is missing in type ...".
        expect({ file: path.relative(root, file), missing: (errors.get(file) ?? []).some((message) => message.includes("refunded")) }).toEqual({
          file: path.relative(root, file),
          missing: true,
        })
      }
    },
    120_000
  )
})
