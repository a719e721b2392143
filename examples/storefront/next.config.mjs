import path from "node:path"
import { fileURLToPath } from "node:url"

const here = path.dirname(fileURLToPath(import.meta.url))

/** @type {import("next").NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // This app lives inside the plugin's repository, which has its own lockfile: trace files from here.
  outputFileTracingRoot: here,
  // The example ships no ESLint setup of its own (the repository's lint covers the plugin, not examples/).
  eslint: { ignoreDuringBuilds: true },
  webpack(config) {
    // Next.js tries `@opentelemetry/api` and falls back to its own copy. Inside this repository the
    // lookup climbs to the plugin's node_modules (Medusa's copy) and the build breaks
    // ("createContextKey is not a function"); a storefront of its own never sees that copy.
    config.resolve.alias = { ...config.resolve.alias, "@opentelemetry/api": path.join(here, "node_modules/next/dist/compiled/@opentelemetry/api") }
    return config
  },
}

export default nextConfig
