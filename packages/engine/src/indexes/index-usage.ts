/**
 * Whether any directory version has query indexes built. Until one is, writes skip index
 * maintenance; once set it stays set for the life of the open database.
 */
export class IndexUsage {
  #inUse: boolean

  constructor(inUse: boolean) {
    this.#inUse = inUse
  }

  get inUse(): boolean {
    return this.#inUse
  }

  /** Called before the first index is recorded. */
  markInUse(): void {
    this.#inUse = true
  }
}
