/** Joins class names, skipping empty ones: cx("mpc-row", undefined, "mine") → "mpc-row mine". */
export function cx(...names: Array<string | false | null | undefined>): string {
  return names.filter((name): name is string => typeof name === "string" && name !== "").join(" ")
}

/** Extra class names per part of a component, keyed by the part's stable `mpc-` name without the prefix. */
export type ClassNames<Part extends string> = Partial<Record<Part, string>>
