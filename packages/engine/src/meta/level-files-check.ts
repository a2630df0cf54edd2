import { open, readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { EngineError } from '../errors'
import { crc32c, unmaskCrc } from '../internal/crc32c'

/** Bytes at the end of every LevelDB table: two block handles, padding, the magic number. */
const FOOTER_BYTES = 48
/** `kTableMagicNumber`, little-endian. */
const TABLE_MAGIC = Uint8Array.of(0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb)
/** A block is followed by its type byte and a masked CRC-32C. */
const BLOCK_TRAILER_BYTES = 5
const DATA_FILE = /^(\d+\.(log|ldb|sst)|MANIFEST-\d+)$/

/** The message and code every refusal to open damaged metadata carries. */
export function damagedMetadata(dataDir: string, damage: string, cause?: unknown): EngineError {
  return new EngineError(
    'CONTENT_CORRUPT',
    `the metadata of the database at ${dataDir} is damaged: ${damage}. Nothing was changed. ` +
      `Stop every process using it, keep a copy of the directory, then run ` +
      `\`svcdb repair --data ${dataDir}\`: it rebuilds the metadata from what is readable and ` +
      `reports what was lost`,
    cause === undefined ? {} : { cause },
  )
}

/**
 * Checks, reading only, what LevelDB would otherwise get wrong on open: a missing or dangling
 * `CURRENT` (LevelDB would create an empty database beside the old files and delete the
 * tables it no longer knows), and each table's footer, index and meta-index blocks (a damaged
 * one fails reads of the whole table). Throws `CONTENT_CORRUPT` naming the damage and the
 * repair command; a directory that does not exist or holds no data file passes.
 *
 * Data blocks are not read here: that would read the whole metadata at every start. Damage
 * in them is found when read (values by their hash, block structure by LevelDB).
 */
export async function checkLevelFiles(metaDir: string, dataDir: string): Promise<void> {
  let names: string[]
  try {
    names = await readdir(metaDir)
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return
    throw err
  }
  if (!names.includes('CURRENT')) {
    // A directory whose creation was cut short before CURRENT holds no data: LevelDB may
    // start it afresh.
    if (names.some((name) => DATA_FILE.test(name)))
      throw damagedMetadata(dataDir, 'meta/CURRENT, which names the live manifest, is missing')
    return
  }
  const current = (await readFile(join(metaDir, 'CURRENT'), 'latin1')).replace(/\n$/, '')
  if (!/^MANIFEST-\d+$/.test(current))
    throw damagedMetadata(dataDir, 'meta/CURRENT does not name a manifest')
  const manifest = await stat(join(metaDir, current)).catch(() => undefined)
  if (manifest === undefined || manifest.size === 0)
    throw damagedMetadata(dataDir, `meta/CURRENT names ${current}, which is missing or empty`)
  const [damaged] = await damagedTables(metaDir, names)
  if (damaged !== undefined)
    throw damagedMetadata(dataDir, `table meta/${damaged.name} ${damaged.damage}`)
}

/** A table whose footer, index or meta-index block is damaged, and how. */
export interface DamagedTable {
  name: string
  damage: string
}

/** The tables of `metaDir` (among `names`, when given) whose footer or index is damaged. */
export async function damagedTables(metaDir: string, names?: string[]): Promise<DamagedTable[]> {
  const found: DamagedTable[] = []
  for (const name of names ?? (await readdir(metaDir))) {
    if (!/^\d+\.(ldb|sst)$/.test(name)) continue
    const damage = await tableDamage(join(metaDir, name))
    if (damage !== undefined) found.push({ name, damage })
  }
  return found
}

/** What is wrong with a table's footer, index or meta-index block, if anything. */
async function tableDamage(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r')
  try {
    const { size } = await handle.stat()
    if (size < FOOTER_BYTES) return `is ${size} bytes, shorter than a table footer`
    const footer = Buffer.alloc(FOOTER_BYTES)
    await handle.read(footer, 0, FOOTER_BYTES, size - FOOTER_BYTES)
    if (!footer.subarray(FOOTER_BYTES - 8).equals(TABLE_MAGIC))
      return 'has no table footer (bad magic number)'
    const at = { pos: 0 }
    for (const block of ['meta-index', 'index'] as const) {
      const offset = readVarint(footer, at)
      const length = readVarint(footer, at)
      if (
        offset === undefined ||
        length === undefined ||
        offset + length + BLOCK_TRAILER_BYTES > size - FOOTER_BYTES
      )
        return `has a footer pointing outside the file (${block} block)`
      const bytes = Buffer.alloc(length + BLOCK_TRAILER_BYTES)
      await handle.read(bytes, 0, bytes.length, offset)
      const stored = unmaskCrc(bytes.readUInt32LE(length + 1))
      if (crc32c(bytes.subarray(0, length + 1)) !== stored)
        return `fails its checksum (${block} block at byte ${offset})`
    }
    return undefined
  } finally {
    await handle.close()
  }
}

/** A LevelDB varint64 (small enough for a safe integer), or `undefined` when malformed. */
function readVarint(bytes: Uint8Array, at: { pos: number }): number | undefined {
  let value = 0
  for (let shift = 0; shift < 50; shift += 7) {
    if (at.pos >= bytes.length) return undefined
    const byte = bytes[at.pos++] as number
    value += (byte & 0x7f) * 2 ** shift
    if ((byte & 0x80) === 0) return value
  }
  return undefined
}
