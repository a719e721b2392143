/// <reference types="vite/client" />

// Injected by @medusajs/admin-bundler when the plugin's admin is built.
declare const __BACKEND_URL__: string | undefined
declare const __AUTH_TYPE__: "session" | "jwt" | undefined
