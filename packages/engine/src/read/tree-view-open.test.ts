import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Database } from '../database'
import { isEngineError } from '../errors'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'

let dir: string
let db: Database

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svcdb-open-'))
  db = await Database.open({ path: dir })
})

afterEach(async () => {
  await db.close()
  await rm(dir, { recursive: true, force: true })
})

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = []
  const reader = stream.getReader()
  for (let next = await reader.read(); next.done !== true; next = await reader.read())
    parts.push(next.value)
  return Buffer.concat(parts)
}

async function codeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run()
    return 'none'
  } catch (err) {
    return isEngineError(err) ? err.code : String(err)
  }
}

describe('TreeView.open', () => {
  it('describes what stat describes, for files, directories, symlinks and the root', async () => {
    await db.writeFile('/d/small.txt', new TextEncoder().encode('hello'), {
      contentType: 'text/plain',
    })
    await db.symlink('/link', '/d/small.txt')
    const view = db.view()
    for (const [path, follow] of [
      ['/d/small.txt', true],
      ['/d', true],
      ['/link', true],
      ['/link', false],
      ['/', true],
    ] as const) {
      expect((await view.open(path, { follow })).entry).toEqual(await view.stat(path, { follow }))
    }
  })

  it('reads a small file whole and by range, through a symlink too', async () => {
    const bytes = pseudoRandomBytes(4096, 1)
    await db.writeFile('/a.bin', bytes)
    await db.symlink('/l', '/a.bin')
    const opened = await db.view().open('/l')
    expect(opened.entry.path).toBe('/a.bin')
    expect(Buffer.from(await opened.read()).equals(bytes)).toBe(true)
    expect(
      Buffer.from(await opened.read({ start: 10, end: 99 })).equals(bytes.subarray(10, 100)),
    ).toBe(true)
    expect((await readAll(opened.stream({ start: 4000 }))).equals(bytes.subarray(4000))).toBe(true)
  })

  it('reads a large file in pack files whole, by range and as a stream', async () => {
    const big = pseudoRandomBytes(3 * 1024 * 1024 + 17, 2)
    await db.writeFile('/big.bin', big)
    const opened = await db.view().open('/big.bin')
    expect(opened.entry.size).toBe(big.length)
    expect(Buffer.from(await opened.read()).equals(big)).toBe(true)
    expect((await readAll(opened.stream())).equals(big)).toBe(true)
    for (const [start, end] of [
      [0, 0],
      [1_000_000, 2_500_000],
      [big.length - 5, big.length - 1],
    ] as const) {
      expect(
        (await readAll(opened.stream({ start, end }))).equals(big.subarray(start, end + 1)),
      ).toBe(true)
      expect(
        Buffer.from(await opened.read({ start, end })).equals(big.subarray(start, end + 1)),
      ).toBe(true)
    }
  })

  it('refuses to read a directory and an invalid range', async () => {
    await db.writeFile('/d/x', new Uint8Array(3))
    const view = db.view()
    expect(await codeOf(async () => (await view.open('/d')).read())).toBe('IS_A_DIRECTORY')
    expect(await codeOf(async () => readAll((await view.open('/')).stream()))).toBe(
      'IS_A_DIRECTORY',
    )
    const file = await view.open('/d/x')
    expect(await codeOf(() => file.read({ start: -1 }))).toBe('INVALID_PATH')
    expect(await codeOf(() => readAll(file.stream({ start: 2, end: 1 })))).toBe('INVALID_PATH')
  })

  it('streams the first bytes of a large file before it meets damage further on', async () => {
    const big = pseudoRandomBytes(3 * 1024 * 1024, 3)
    await db.writeFile('/big.bin', big)
    await db.close()
    // Damage near the end of the file, far past the first window.
    const marker = Buffer.from(big.subarray(2_900_000, 2_900_064))
    const packs = join(dir, 'packs')
    let flipped = false
    for (const name of await readdir(packs)) {
      const bytes = await readFile(join(packs, name))
      const at = bytes.indexOf(marker)
      if (at < 0) continue
      bytes[at + 10] = (bytes[at + 10] as number) ^ 0xff
      await writeFile(join(packs, name), bytes)
      flipped = true
    }
    expect(flipped).toBe(true)
    db = await Database.open({ path: dir })
    const reader = (await db.view().open('/big.bin')).stream().getReader()
    const first = await reader.read()
    expect(first.done).toBe(false)
    expect(
      Buffer.from(first.value as Uint8Array).equals(big.subarray(0, first.value?.length)),
    ).toBe(true)
    let code = 'none'
    try {
      for (;;) if ((await reader.read()).done) break
    } catch (err) {
      code = isEngineError(err) ? err.code : String(err)
    }
    expect(code).toBe('CONTENT_CORRUPT')
  })
})
