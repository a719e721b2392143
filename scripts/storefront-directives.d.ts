/** Problems with the "use client" directives of the storefront kit's emitted files (path → JS text). */
export function checkUseClient(files: Record<string, string>): string[]
export const DIRECTIVE: RegExp
