import { basename, dirname } from 'node:path'
import type { PackFileHandle, PackFileSystem } from '../chunks/pack-file-system'

/** The errors {@link SimulatedFileSystem.failFrom} injects. */
export type SimulatedFaultCode = 'EIO' | 'ENOSPC'

/** A simulated file system for the pack store that can crash and fail on demand. */
export interface SimulatedFileSystem extends PackFileSystem {
  /** Writes (file writes, creations, truncations, new directories) and syncs so far. */
  readonly operations: number
  /**
   * Crashes when operation `n` (counting from 1, see {@link operations}) starts: it and every
   * later call never settle, as in a process that is gone. `onCrash` runs synchronously at
   * that moment (to freeze the metadata and the list of acknowledged work alongside).
   */
  crashAt(n: number, onCrash: () => void): void
  /** True once a crash happened. */
  readonly crashed: boolean
  /**
   * What the disk holds after a power loss now: only bytes a `datasync` covered, and only the
   * directory entries (creations, removals) a `syncDirectory` of their directory covered.
   */
  afterCrash(): SimulatedFileSystem
  /**
   * From operation `n` on, every write (or sync, or both) fails with `code` until
   * {@link lift}; a failing write stores half its bytes first, as a full disk may.
   */
  failFrom(n: number, code: SimulatedFaultCode, kind?: 'write' | 'sync' | 'any'): void
  /** Ends an injected fault. */
  lift(): void
  /** The current bytes of a file, or undefined when it does not exist. */
  fileBytes(path: string): Uint8Array | undefined
}

class Inode {
  data = new Uint8Array(0)
  length = 0
  durable = new Uint8Array(0)
}

type Entry = Inode | 'dir'

interface State {
  /** Current entries of every existing directory. */
  live: Map<string, Map<string, Entry>>
  /** Entries as of each directory's last sync (what a power loss keeps). */
  synced: Map<string, Map<string, Entry>>
}

function fsError(code: string, message: string): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code })
}

const never = <T>(): Promise<T> => new Promise<T>(() => undefined)

/**
 * An in-memory {@link PackFileSystem} modelled on SQLite's crash VFS: it tracks per file what
 * was written and what was datasynced, and per directory which entries were synced, so a
 * simulated power loss ({@link SimulatedFileSystem.afterCrash}) drops everything that was not
 * made durable. A missing fdatasync or directory fsync in the pack store then loses
 * acknowledged data in a test. It also injects `EIO`/`ENOSPC` on the n-th write or sync.
 *
 * Paths are absolute; `root` (and its ancestors) exists and is durable from the start.
 *
 * @example
 * const files = createSimulatedFileSystem('/sim')
 * const store = await createPackChunkStore({ dir: '/sim/packs', meta, files })
 */
export function createSimulatedFileSystem(root = '/sim'): SimulatedFileSystem {
  const state: State = { live: new Map(), synced: new Map() }
  const chain: string[] = []
  for (let at = root; ; at = dirname(at)) {
    chain.push(at)
    state.live.set(at, new Map())
    if (dirname(at) === at) break
  }
  for (const at of chain)
    if (dirname(at) !== at) state.live.get(dirname(at))?.set(basename(at), 'dir')
  for (const at of chain) state.synced.set(at, new Map(state.live.get(at)))
  return simulated(state)
}

function simulated(state: State): SimulatedFileSystem {
  let operations = 0
  let crash: { at: number; onCrash(): void } | undefined
  let crashed = false
  let fault: { from: number; code: SimulatedFaultCode; kind: 'write' | 'sync' | 'any' } | undefined

  /** Counts an operation; answers whether it proceeds, crashes (never settles) or fails. */
  function begin(kind: 'write' | 'sync'): 'go' | 'crash' | SimulatedFaultCode {
    if (crashed) return 'crash'
    operations++
    if (crash !== undefined && operations >= crash.at) {
      crashed = true
      crash.onCrash()
      return 'crash'
    }
    if (
      fault !== undefined &&
      operations >= fault.from &&
      (fault.kind === 'any' || fault.kind === kind)
    )
      return fault.code
    return 'go'
  }

  const entriesOf = (dir: string): Map<string, Entry> => {
    const entries = state.live.get(dir)
    if (entries === undefined) throw fsError('ENOENT', `no directory ${dir}`)
    return entries
  }

  function handle(inode: Inode): PackFileHandle {
    return {
      async writev(buffers, position) {
        const step = begin('write')
        if (step === 'crash') return never()
        const total = buffers.reduce((sum, b) => sum + b.length, 0)
        const keep = step === 'go' ? total : Math.floor(total / 2)
        const end = position + keep
        if (end > inode.data.length) {
          const grown = new Uint8Array(Math.max(end, inode.data.length * 2))
          grown.set(inode.data.subarray(0, inode.length))
          inode.data = grown
        }
        let at = position
        for (const buffer of buffers) {
          const part = buffer.subarray(0, Math.max(0, end - at))
          inode.data.set(part, at)
          at += part.length
        }
        inode.length = Math.max(inode.length, end)
        if (step !== 'go') throw fsError(step, 'simulated write fault')
        return { bytesWritten: total }
      },
      async read(buffer, offset, length, position) {
        if (crashed) return never()
        const n = Math.max(0, Math.min(length, inode.length - position))
        buffer.set(inode.data.subarray(position, position + n), offset)
        return { bytesRead: n }
      },
      async size() {
        if (crashed) return never()
        return inode.length
      },
      async datasync() {
        const step = begin('sync')
        if (step === 'crash') return never()
        if (step !== 'go') throw fsError(step, 'simulated sync fault')
        inode.durable = inode.data.slice(0, inode.length)
      },
      async truncate(length) {
        const step = begin('write')
        if (step === 'crash') return never()
        if (step !== 'go') throw fsError(step, 'simulated truncate fault')
        if (length > inode.length) throw new RangeError('the simulation only shortens files')
        inode.length = length
      },
      async close() {},
    }
  }

  const fs: SimulatedFileSystem = {
    get operations() {
      return operations
    },
    get crashed() {
      return crashed
    },
    crashAt(n, onCrash) {
      crash = { at: n, onCrash }
    },
    failFrom(n, code, kind = 'any') {
      fault = { from: n, code, kind }
    },
    lift() {
      fault = undefined
    },
    fileBytes(path) {
      const entry = state.live.get(dirname(path))?.get(basename(path))
      return entry instanceof Inode ? entry.data.slice(0, entry.length) : undefined
    },
    afterCrash() {
      const next: State = { live: new Map(), synced: new Map() }
      const copies = new Map<Inode, Inode>()
      // Walk what is durably reachable from the top; each file keeps its synced bytes.
      const visit = (dir: string): void => {
        const entries = new Map<string, Entry>()
        for (const [name, entry] of state.synced.get(dir) ?? []) {
          if (entry === 'dir') {
            entries.set(name, 'dir')
            visit(dir === '/' ? `/${name}` : `${dir}/${name}`)
            continue
          }
          let copy = copies.get(entry)
          if (copy === undefined) {
            copy = new Inode()
            copy.data = entry.durable.slice()
            copy.length = copy.data.length
            copy.durable = copy.data.slice()
            copies.set(entry, copy)
          }
          entries.set(name, copy)
        }
        next.live.set(dir, entries)
        next.synced.set(dir, new Map(entries))
      }
      visit('/')
      return simulated(next)
    },

    async open(path) {
      if (crashed) return never()
      const entry = entriesOf(dirname(path)).get(basename(path))
      if (entry === undefined) throw fsError('ENOENT', `no file ${path}`)
      if (entry === 'dir') throw fsError('EISDIR', `${path} is a directory`)
      return handle(entry)
    },
    async create(path) {
      const entries = entriesOf(dirname(path))
      const step = begin('write')
      if (step === 'crash') return never()
      if (step !== 'go') throw fsError(step, 'simulated create fault')
      if (entries.has(basename(path))) throw fsError('EEXIST', `${path} exists`)
      const inode = new Inode()
      entries.set(basename(path), inode)
      return handle(inode)
    },
    async mkdir(dir) {
      let first: string | undefined
      const missing: string[] = []
      for (let at = dir; !state.live.has(at); at = dirname(at)) missing.unshift(at)
      for (const at of missing) {
        const step = begin('write')
        if (step === 'crash') return never()
        if (step !== 'go') throw fsError(step, 'simulated mkdir fault')
        entriesOf(dirname(at)).set(basename(at), 'dir')
        state.live.set(at, new Map())
        state.synced.set(at, new Map())
        first ??= at
      }
      return first
    },
    async readdir(dir) {
      if (crashed) return never()
      return [...entriesOf(dir).keys()]
    },
    async unlink(path) {
      if (crashed) return never()
      const entries = entriesOf(dirname(path))
      const entry = entries.get(basename(path))
      if (entry === undefined) throw fsError('ENOENT', `no file ${path}`)
      if (entry === 'dir') throw fsError('EISDIR', `${path} is a directory`)
      // Not counted: removing a file needs no space and the faults are about writes and syncs.
      entries.delete(basename(path))
    },
    async syncDirectory(dir) {
      const entries = entriesOf(dir)
      const step = begin('sync')
      if (step === 'crash') return never()
      if (step !== 'go') throw fsError(step, 'simulated directory sync fault')
      state.synced.set(dir, new Map(entries))
    },
  }
  return fs
}
