// The "use client" rule of the storefront kit's build output, shared by scripts/build-storefront.js and the
// kit's unit test: every component and hook file starts with the directive (Next.js only honours it as the
// first statement), and the entries (index.js, server.js) and pure helpers do not carry it, so a server
// component can import the helpers and the server entry stays server code.
const DIRECTIVE = /^\s*(\/\/[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*["']use client["'];?/

/** @param {Record<string, string>} files relative path (posix) → emitted JS text @returns {string[]} problems */
function checkUseClient(files) {
  const problems = []
  for (const [file, text] of Object.entries(files)) {
    if (!file.endsWith(".js")) continue
    const client = file.startsWith("components/") || file.startsWith("hooks/")
    const has = DIRECTIVE.test(text)
    if (client && !has) problems.push(`${file}: "use client" is not the first statement`)
    if (!client && has) problems.push(`${file}: has "use client" but is not a component or hook file`)
  }
  return problems
}

module.exports = { checkUseClient, DIRECTIVE }
