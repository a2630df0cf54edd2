import { Readable } from 'node:stream'
import type { CommandContext, OptionSpecs } from '../command'
import { createProgress } from '../output/progress'
import { formatBytes } from '../output/table'
import { writeLocal } from './local-files'

/** `--data DIR`: work offline on a stopped server's data directory. */
export const dataOption = {
  data: {
    type: 'string',
    value: 'DIR',
    help: "Work on a stopped server's data directory through the engine, without a server.",
  },
} as const satisfies OptionSpecs

/** A progress bar for this command (none under --json or off a terminal). */
export function progressFor(
  ctx: CommandContext,
  label: string,
  total: number | undefined,
  enabled = true,
) {
  return createProgress({
    label,
    total,
    enabled: enabled && !ctx.json,
    ...(ctx.io.stderrStream === undefined ? {} : { stream: ctx.io.stderrStream }),
  })
}

/** Streams an archive (web or async-iterable) to `-o FILE`, stdout, or the server's name. */
export async function saveArchive(
  ctx: CommandContext,
  body: ReadableStream<Uint8Array>,
  output: string,
  label: string,
) {
  const progress = progressFor(ctx, label, undefined, output !== '-')
  try {
    const size = await writeLocal(body, output, ctx.io, (n) => progress.update(n))
    progress.stop()
    if (output !== '-') ctx.print({ file: output, size }, () => `${output}  ${formatBytes(size)}\n`)
  } finally {
    progress.stop()
  }
}

/** An engine archive stream as a web stream, as the client hands them out. */
export function toWebStream(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  return Readable.toWeb(Readable.from(source)) as unknown as ReadableStream<Uint8Array>
}
