import type { AppendedAt } from './pack-appender'
import type { PackFile } from './pack-file'

/**
 * Writes the records a compaction copies into fresh packs of its own, rotating at the size
 * limit. Writers never append there, so each new pack's committed length is exactly its size
 * and cannot race with the lengths group commits record for the active pack.
 */
export class PackCopier {
  /** The packs written so far, in order. */
  readonly created: PackFile[] = []
  #current: PackFile | undefined

  constructor(
    private readonly newPack: () => Promise<PackFile>,
    private readonly sizeLimit: number,
  ) {}

  /** Appends whole records (header and stored bytes in one buffer each); returns where each went. */
  async write(records: Uint8Array[]): Promise<AppendedAt[]> {
    const at: AppendedAt[] = []
    let i = 0
    while (i < records.length) {
      const pack = await this.#packFor((records[i] as Uint8Array).length)
      const base = pack.size
      const group: Uint8Array[] = []
      let length = 0
      while (i < records.length) {
        const record = records[i] as Uint8Array
        if (group.length > 0 && base + length + record.length > this.sizeLimit) break
        group.push(record)
        at.push({ pack: pack.id, offset: base + length })
        length += record.length
        i++
      }
      await pack.write(group, base)
      pack.size = base + length
    }
    return at
  }

  /** fdatasyncs every pack written, so the commit may point the index at them. */
  async sync(): Promise<void> {
    await Promise.all(this.created.map((p) => p.datasync()))
  }

  async #packFor(length: number): Promise<PackFile> {
    const current = this.#current
    if (current !== undefined && (current.size === 0 || current.size + length <= this.sizeLimit)) {
      return current
    }
    const pack = await this.newPack()
    this.created.push(pack)
    this.#current = pack
    return pack
  }
}
