import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * The engine's rows, top to bottom, as its README pictures them ("Inside: services and the
 * direction of data"): a folder imports only folders of rows below its own, so data flows one
 * way and no two folders import each other. `.` is the files directly in `src/`.
 */
const ROWS: readonly (readonly string[])[] = [
  ['.'],
  ['gc', 'archive'],
  ['versions', 'write', 'verify'],
  ['indexes'],
  ['commit'],
  ['state', 'read', 'changes', 'storage'],
  ['stats', 'tree', 'chunks'],
  ['objects'],
  ['meta', 'cluster'],
  ['chunking', 'hashing', 'path', 'internal', 'query-language'],
]

/** Beside the rows: the `testing` subpath may import these, and no row imports it. */
const TESTING_USES = new Set(['.', 'chunks', 'meta', 'hashing', 'internal', 'cluster'])

const src = dirname(fileURLToPath(import.meta.url))

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** The folder of `src/` a file (or an imported folder) is in, `.` for the files at its top. */
function folderOf(path: string): string {
  const parts = relative(src, path).split('/')
  if (parts.length > 1) return parts[0] as string
  return existsSync(path) && statSync(path).isDirectory() ? (parts[0] as string) : '.'
}

function rowOf(folder: string): number {
  const row = ROWS.findIndex((names) => names.includes(folder))
  if (row < 0) throw new Error(`the folder src/${folder} is in no row of ROWS: place it`)
  return row
}

/**
 * Every relative import of the engine's sources but those of `errors.ts` (every row may use
 * it), as [importing file, its folder, the imported folder].
 */
function imports(): [file: string, from: string, to: string][] {
  return sourceFiles(src).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\bfrom '(\.{1,2}\/[^']+)'/g)].flatMap((match) => {
      const target = resolve(dirname(file), match[1] as string)
      if (relative(src, target) === 'errors') return []
      return [[relative(src, file), folderOf(file), folderOf(target)] as [string, string, string]]
    }),
  )
}

/** The imports that break the picture, one line each. */
function violations(): string[] {
  const found: string[] = []
  for (const [file, from, to] of imports()) {
    if (from === to) continue
    if (from === 'testing') {
      if (!TESTING_USES.has(to)) found.push(`${file} (testing) imports ${to}`)
      continue
    }
    if (to === 'testing') {
      found.push(`${file} imports testing/, which only tests may use`)
      continue
    }
    if (rowOf(to) <= rowOf(from)) found.push(`${file} (${from}) imports ${to}, not a row below`)
  }
  return found
}

describe('the engine’s layers', () => {
  it('import only downward: each folder uses folders of lower rows, and no two import each other', () => {
    expect(violations()).toEqual([])
  })

  it('places every folder of src/ in a row', () => {
    const folders = new Set(sourceFiles(src).map(folderOf))
    folders.delete('testing')
    for (const folder of folders) expect(() => rowOf(folder)).not.toThrow()
  })
})
