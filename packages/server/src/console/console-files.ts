import { createHash } from 'node:crypto'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib'
import mime from 'mime'

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** One file of the console's build, held in memory with its compressed forms. */
export interface ConsoleFile {
  bytes: Uint8Array
  /** Brotli and gzip forms, when they are smaller (text files). */
  br?: Uint8Array
  gzip?: Uint8Array
  contentType: string
  /** A strong ETag from the content. */
  etag: string
  /** A content-hashed asset (`assets/…`), cacheable for good. */
  immutable: boolean
}

/** The console's built files by path below `/console/` (`index.html`, `assets/app-1a2b.js`). */
export type ConsoleFiles = ReadonlyMap<string, ConsoleFile>

/** The build is small (≈ 100 KB): past this, something else sits in the directory. */
const MAX_TOTAL_BYTES = 32 * 1024 * 1024
const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/

/**
 * Reads the console's `dist` directory into memory, compressing text files once with Brotli
 * and gzip, so serving it costs no disk read and no compression per request. `undefined`
 * when the directory holds no `index.html` (the console was not built).
 */
export async function loadConsoleFiles(dir: string): Promise<ConsoleFiles | undefined> {
  const index = await stat(join(dir, 'index.html')).catch(() => undefined)
  if (index === undefined || !index.isFile()) return undefined
  const files = new Map<string, ConsoleFile>()
  let total = 0
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const full = join(entry.parentPath, entry.name)
    const path = relative(dir, full).split(sep).join('/')
    const bytes = new Uint8Array(await readFile(full))
    total += bytes.length
    if (total > MAX_TOTAL_BYTES)
      throw new Error(`the console directory ${dir} holds more than ${MAX_TOTAL_BYTES} bytes`)
    files.set(path, await prepare(path, bytes))
  }
  return files
}

async function prepare(path: string, bytes: Uint8Array): Promise<ConsoleFile> {
  const contentType = mime.getType(path) ?? 'application/octet-stream'
  const file: ConsoleFile = {
    bytes,
    contentType: contentType.startsWith('text/') ? `${contentType}; charset=utf-8` : contentType,
    etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`,
    immutable: path.startsWith('assets/'),
  }
  if (COMPRESSIBLE.test(contentType) && bytes.length > 256) {
    const br = await brotliAsync(bytes, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 },
    })
    const gz = await gzipAsync(bytes, { level: 9 })
    if (br.length < bytes.length) file.br = new Uint8Array(br)
    if (gz.length < bytes.length) file.gzip = new Uint8Array(gz)
  }
  return file
}
