/** The README with each screenshot linked to its packed copy of `name@version` on unpkg. */
export function absoluteImages(text: string, name: string, version: string): string
/** The screenshot files the README links relatively. */
export function screenshotsOf(text: string): string[]
