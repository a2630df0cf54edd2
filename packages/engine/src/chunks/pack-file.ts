import { join } from 'node:path'
import type { PackFileHandle, PackFileSystem } from './pack-file-system'

const NAME = /^pack-(\d{6,})\.pack$/

/** The file name of pack `id`: `pack-000001.pack` (more digits past 999999). */
export function packFileName(id: number): string {
  return `pack-${String(id).padStart(6, '0')}.pack`
}

/** The id of a pack file name, or undefined for any other file. */
export function parsePackFileName(name: string): number | undefined {
  const match = NAME.exec(name)
  return match === null ? undefined : Number(match[1])
}

/**
 * One append-only pack file, kept open for the store's lifetime. Writes and reads are
 * positional, so concurrent reads never disturb each other or the writer.
 */
export class PackFile {
  /** Bytes written (appended and completed); the next record goes here. */
  size: number
  #reads = 0
  #retired: (() => void) | undefined

  private constructor(
    readonly id: number,
    readonly path: string,
    private readonly handle: PackFileHandle,
    size: number,
  ) {
    this.size = size
  }

  /** Opens an existing pack for reading and appending. */
  static async open(files: PackFileSystem, dir: string, id: number): Promise<PackFile> {
    const path = join(dir, packFileName(id))
    const handle = await files.open(path)
    try {
      return new PackFile(id, path, handle, await handle.size())
    } catch (err) {
      await handle.close()
      throw err
    }
  }

  /**
   * Creates a new, empty pack and makes its directory entry durable before any record goes
   * in: a batch may point the index at it as soon as its bytes are datasynced.
   */
  static async create(files: PackFileSystem, dir: string, id: number): Promise<PackFile> {
    const path = join(dir, packFileName(id))
    const handle = await files.create(path)
    try {
      await files.syncDirectory(dir)
    } catch (err) {
      await handle.close()
      throw err
    }
    return new PackFile(id, path, handle, 0)
  }

  /** Writes `buffers` back to back at `position`, retrying short writes. */
  async write(buffers: Uint8Array[], position: number): Promise<void> {
    let pending = buffers.filter((b) => b.length > 0)
    let at = position
    while (pending.length > 0) {
      const { bytesWritten } = await this.handle.writev(pending, at)
      at += bytesWritten
      let skip = bytesWritten
      const rest: Uint8Array[] = []
      for (const buffer of pending) {
        if (skip >= buffer.length) skip -= buffer.length
        else {
          rest.push(skip > 0 ? buffer.subarray(skip) : buffer)
          skip = 0
        }
      }
      if (rest.length > 0 && bytesWritten === 0) throw new Error('pack write made no progress')
      pending = rest
    }
  }

  /**
   * Reads up to `length` bytes at `position`; fewer when the file ends first. The read counts
   * as in flight from the call on (before any await), so {@link retire} waits for it. Reads
   * into `into` when it is large enough, else into new memory.
   */
  async read(position: number, length: number, into?: Uint8Array): Promise<Uint8Array> {
    this.#reads++
    try {
      // Not zero-filled (a 1 MiB span cost 6 % of a large GET zeroing memory the read then
      // overwrites): only the bytes the file filled are ever returned.
      // A plain Uint8Array over it, so callers' `slice()` still copies.
      const buffer =
        into !== undefined && into.length >= length
          ? new Uint8Array(into.buffer, into.byteOffset, length)
          : new Uint8Array(Buffer.allocUnsafeSlow(length).buffer, 0, length)
      let filled = 0
      while (filled < length) {
        const { bytesRead } = await this.handle.read(
          buffer,
          filled,
          length - filled,
          position + filled,
        )
        if (bytesRead === 0) break
        filled += bytesRead
      }
      return filled === length ? buffer : buffer.subarray(0, filled)
    } finally {
      if (--this.#reads === 0) this.#retired?.()
    }
  }

  /**
   * Closes the handle once the reads in flight are done (a compacted pack: readers that found
   * it before it left the store's map still finish). No new read may start.
   */
  retire(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#retired = resolve
      if (this.#reads === 0) resolve()
    }).then(() => this.close())
  }

  /** fdatasync: written bytes (and the size needed to read them) reach stable storage. */
  async datasync(): Promise<void> {
    await this.handle.datasync()
  }

  /** Cuts the file to `length` bytes (a torn tail found on open). */
  async truncate(length: number): Promise<void> {
    await this.handle.truncate(length)
    this.size = length
  }

  async close(): Promise<void> {
    await this.handle.close()
  }
}
