/**
 * A counter of writes to the settings table made in this process (any path: the admin's workflow,
 * a script, a test writing through the module). Checkouts cache the settings row for a few seconds
 * (src/core/settings.ts, `readEffectiveOptionsCached`) and read it again as soon as this moves.
 */
let generation = 0

/** The writes to `crypto_setting` this process has made so far. */
export function settingsGeneration(): number {
  return generation
}

/** Called by the module service after every write to `crypto_setting`. */
export function settingsChanged(): void {
  generation += 1
}
