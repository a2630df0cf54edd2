import { randomBytes } from 'node:crypto'
import { copyFile, lstat, mkdir, readdir, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { MAX_NAME_BYTES, MAX_PATH_BYTES, reservedKind } from '../src/index'

const KiB = 1024
const MiB = 1024 * KiB

/** A corpus on disk: its directory, how many files and bytes it holds. */
export interface Corpus {
  dir: string
  files: number
  bytes: number
}

/** A deterministic pseudo-random source (mulberry32), so every run writes the same text. */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

/**
 * Writes `count` files of 1–16 KiB of text made of words from a fixed 4,096-word dictionary,
 * drawn with a skew towards the first words (as in prose or code), 100 files a directory:
 * it compresses about as well as real text, unlike random bytes.
 */
export async function writeTextCorpus(dir: string, count: number): Promise<Corpus> {
  const random = seeded(16)
  const letters = 'etaoinshrdlcumwfgypbvkjxqz'
  const dictionary = Array.from({ length: 4096 }, () => {
    const length = 2 + Math.floor(random() * 9)
    let word = ''
    for (let i = 0; i < length; i++) word += letters[Math.floor(random() ** 1.5 * 26)]
    return word
  })
  let bytes = 0
  for (let i = 0; i < count; i++) {
    const size = KiB + Math.floor(random() * 15 * KiB)
    let text = ''
    while (text.length < size) {
      text += dictionary[Math.floor(random() ** 3 * dictionary.length)]
      text += random() < 0.08 ? '\n' : ' '
    }
    const path = join(dir, `d${Math.floor(i / 100)}`, `f${i}.txt`)
    if (i % 100 === 0) await mkdir(dirname(path), { recursive: true })
    await writeFile(path, text.slice(0, size))
    bytes += size
  }
  return { dir, files: count, bytes }
}

/** Writes `total` bytes of random (incompressible) data as files of 1–16 MiB. */
export async function writeRandomCorpus(dir: string, total: number): Promise<Corpus> {
  const random = seeded(256)
  await mkdir(dir, { recursive: true })
  let bytes = 0
  let files = 0
  while (bytes < total) {
    const size = Math.min(total - bytes, MiB + Math.floor(random() * 15 * MiB))
    await writeFile(join(dir, `r${files}.bin`), randomBytes(size))
    bytes += size
    files++
  }
  return { dir, files, bytes }
}

/**
 * Copies the regular files below `from` into `to`, in name order, up to `cap` bytes: symlinks
 * to files are copied as the files they name; symlinks to directories are not followed (in a
 * pnpm `node_modules` they lead back into `.pnpm`, which is walked itself). Paths svcdb would
 * refuse (too long, reserved names) are left out, so every tool stores the same tree.
 */
export async function copySourceTree(from: string, to: string, cap: number): Promise<Corpus> {
  const corpus = { dir: to, files: 0, bytes: 0 }
  const walk = async (rel: string): Promise<boolean> => {
    const names = (await readdir(join(from, rel))).sort()
    for (const name of names) {
      const path = rel === '' ? name : `${rel}/${name}`
      const source = join(from, path)
      let info = await lstat(source)
      if (info.isSymbolicLink()) {
        info = await stat(source).catch(() => info)
        if (!info.isFile()) continue
      }
      if (info.isDirectory()) {
        if (!(await walk(path))) return false
      } else if (info.isFile() && storable(path, name)) {
        // A file past the cap is left out and the walk goes on: one large binary early in
        // the tree must not end it; it stops once the tree is all but full.
        if (corpus.bytes + info.size > cap) {
          if (corpus.bytes > cap * 0.99) return false
          continue
        }
        await mkdir(join(to, rel), { recursive: true })
        await copyFile(source, join(to, path))
        corpus.files++
        corpus.bytes += info.size
      }
    }
    return true
  }
  await walk('')
  return corpus
}

function storable(path: string, name: string): boolean {
  return (
    Buffer.byteLength(name) <= MAX_NAME_BYTES &&
    Buffer.byteLength(path) + 1 <= MAX_PATH_BYTES &&
    reservedKind(`/${path}`) === undefined
  )
}
