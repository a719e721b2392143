/**
 * The sandbox clock: wall time plus an offset the tests and the control API move forward
 * (`POST /_sandbox/clock/advance`). A frozen clock (tests) only moves when told to.
 */
export class SandboxClock {
  private offsetMs = 0

  constructor(private readonly frozenAtMs: number | null = null) {}

  now(): number {
    return (this.frozenAtMs ?? Date.now()) + this.offsetMs
  }

  nowSeconds(): number {
    return Math.floor(this.now() / 1000)
  }

  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new RangeError("seconds must be a finite number >= 0")
    }
    this.offsetMs += Math.round(seconds * 1000)
  }

  get offset(): number {
    return this.offsetMs
  }

  setOffset(offsetMs: number): void {
    this.offsetMs = offsetMs
  }
}
