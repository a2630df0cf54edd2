import { createReadStream, createWriteStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { CliError } from '../cli-error'
import type { CliIo } from '../cli-io'
import { EXIT_CODES } from '../exit-codes'

/** A local source: a file, or standard input for `-`. */
export async function openLocalSource(
  path: string,
  io: CliIo,
): Promise<{ stream: Readable; size: number | undefined }> {
  if (path === '-') {
    if (io.stdin === undefined) throw new CliError('no standard input to read')
    return { stream: io.stdin, size: undefined }
  }
  let size: number
  try {
    const info = await stat(path)
    if (!info.isFile()) throw new CliError(`${path} is not a regular file`)
    size = info.size
  } catch (err) {
    if (err instanceof CliError) throw err
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new CliError(`${path}: no such file`, EXIT_CODES.NOT_FOUND)
    throw new CliError(`cannot read ${path}: ${(err as Error).message}`)
  }
  return { stream: createReadStream(path), size }
}

/** Counts the bytes flowing through an async iterable. */
export async function* counting(
  source: AsyncIterable<Uint8Array>,
  onBytes: (total: number) => void,
): AsyncGenerator<Uint8Array> {
  let total = 0
  for await (const part of source) {
    total += part.length
    onBytes(total)
    yield part
  }
}

/** Writes a web stream to a local file, or to standard output for `-`. */
export async function writeLocal(
  body: ReadableStream<Uint8Array>,
  path: string,
  io: CliIo,
  onBytes: (total: number) => void = () => undefined,
): Promise<number> {
  let total = 0
  const source = Readable.from(
    counting(body as unknown as AsyncIterable<Uint8Array>, (n) => {
      total = n
      onBytes(n)
    }),
  )
  if (path === '-') {
    if (io.stdoutStream === undefined) throw new CliError('no standard output to write')
    await pipeline(source, io.stdoutStream, { end: false })
  } else {
    await pipeline(source, createWriteStream(path))
  }
  return total
}
