/** The storefront the demo store serves: the developer's own (`STOREFRONT_URL`) or the example one. */
export interface DemoStorefront {
  own: boolean
  startExample: boolean
  url: string
  origin: string
}

export function demoStorefront(env: Record<string, string | undefined>, options: { exampleRequested: boolean; examplePort: number }): DemoStorefront

export function demoStoreEnv(
  env: Record<string, string | undefined>,
  services: {
    databaseUrl: string
    backendUrl: string
    sandboxUrl: string
    apiKey: string
    whiteLabel: boolean
    seedOutput: string
    storefront?: Pick<DemoStorefront, "url" | "origin">
  }
): Record<string, string | undefined>
