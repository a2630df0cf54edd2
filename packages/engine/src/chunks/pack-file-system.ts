import { mkdir, open, readdir, unlink } from 'node:fs/promises'

/** An open pack file: positional I/O only, so readers and the one writer never disturb each other. */
export interface PackFileHandle {
  /** Writes `buffers` back to back at `position`; may write fewer bytes than asked. */
  writev(buffers: Uint8Array[], position: number): Promise<{ bytesWritten: number }>
  /** Reads up to `length` bytes at `position` into `buffer` at `offset`; 0 at the end. */
  read(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }>
  /** The file's current length. */
  size(): Promise<number>
  /** fdatasync: the written bytes and the length reach stable storage. */
  datasync(): Promise<void>
  truncate(length: number): Promise<void>
  close(): Promise<void>
}

/**
 * The file operations the pack store uses, and nothing more: the seam where the crash and
 * fault tests put a simulated file system (see `createSimulatedFileSystem` in
 * `@svcdb/engine/testing`). A creation, rename or removal is durable only once its directory
 * is synced; written bytes only once the file is datasynced.
 */
export interface PackFileSystem {
  /** Opens an existing file for reading and writing (`r+`). */
  open(path: string): Promise<PackFileHandle>
  /** Creates a new, empty file for reading and writing; fails with `EEXIST` if it exists. */
  create(path: string): Promise<PackFileHandle>
  /** Creates `dir` and its missing parents; returns the first directory created, if any. */
  mkdir(dir: string): Promise<string | undefined>
  /** The names of the entries of `dir`. */
  readdir(dir: string): Promise<string[]>
  unlink(path: string): Promise<void>
  /** fsyncs `dir`, making the creation and removal of its entries durable. */
  syncDirectory(dir: string): Promise<void>
}

/** The pack file system over `node:fs`: the default. */
export const nodePackFileSystem: PackFileSystem = {
  async open(path) {
    return nodeHandle(await open(path, 'r+'))
  },
  async create(path) {
    return nodeHandle(await open(path, 'wx+'))
  },
  mkdir: (dir) => mkdir(dir, { recursive: true }),
  readdir: (dir) => readdir(dir),
  unlink: (path) => unlink(path),
  async syncDirectory(dir) {
    const handle = await open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  },
}

function nodeHandle(handle: Awaited<ReturnType<typeof open>>): PackFileHandle {
  return {
    writev: (buffers, position) => handle.writev(buffers, position),
    read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
    size: async () => (await handle.stat()).size,
    datasync: () => handle.datasync(),
    truncate: (length) => handle.truncate(length),
    close: () => handle.close(),
  }
}
