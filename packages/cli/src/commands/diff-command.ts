import type { Command, CommandContext } from '../command'
import { usageError } from '../cli-error'
import { openDataDir } from '../offline/open-data-dir'
import { stringOption } from '../option-value'
import { dataOption, saveArchive, toWebStream } from './archive-output'

/** One entry that differs between two versions, as `svcdb diff --json` prints it. */
export interface DiffItem {
  path: string
  change: 'added' | 'modified' | 'deleted'
  type: 'file' | 'directory' | 'symlink'
}

const LETTER = { added: 'A', modified: 'M', deleted: 'D' } as const

/** Collects the changes between two versions. An entry that changed kind shows as D then A. */
async function nameStatus(differences: AsyncIterable<DiffItem>): Promise<DiffItem[]> {
  const items: DiffItem[] = []
  for await (const item of differences) items.push(item)
  return items
}

function printNameStatus(ctx: CommandContext, from: string, to: string, items: DiffItem[]) {
  ctx.print({ from, to, items }, () =>
    items.map((item) => `${LETTER[item.change]} ${item.path}\n`).join(''),
  )
}

/** `svcdb diff FROM [TO]`: name-status lines, or with `--patch FILE` the `.svcdb` patch. */
export const diffCommand: Command = {
  name: 'diff',
  summary: 'what changed between two versions (A, M, D per path); --patch writes a .svcdb patch',
  usage: '<from> [to]',
  details:
    'FROM and TO are snapshot names or version hashes; TO defaults to HEAD (read once, so the\n' +
    'answer is about one HEAD). One line per change, as git diff --name-status prints it:\n' +
    '  A /path   added in TO      M /path   changed      D /path   deleted in TO\n' +
    'A new or deleted directory is one line (its contents are not listed). --json prints\n' +
    '{"from","to","items":[{"path","change":"added|modified|deleted","type"}]}. Only the\n' +
    'paths your key may read are listed.\n\n' +
    '--patch FILE (or -o FILE) writes instead a .svcdb patch from FROM to TO (root), which\n' +
    '`svcdb import` applies to another database.\n\n' +
    'Examples: svcdb diff before-cleanup\n' +
    '          svcdb diff v1 v2 --patch v1-v2.svcdb',
  options: {
    patch: {
      type: 'string',
      value: 'FILE',
      help: 'Write the .svcdb patch from FROM to TO to FILE (- for stdout) instead of listing.',
    },
    output: { type: 'string', short: 'o', value: 'FILE', help: 'The same as --patch FILE.' },
    to: { type: 'string', help: 'The same as the TO argument (kept for older scripts).' },
    ...dataOption,
  },
  args: [1, 2],
  async run([from, toArg], values, ctx) {
    const toOption = stringOption(values.to)
    if (toArg !== undefined && toOption !== undefined)
      throw usageError('give TO once: as an argument or with --to')
    const patchOption = stringOption(values.patch)
    const outputOption = stringOption(values.output)
    if (patchOption !== undefined && outputOption !== undefined)
      throw usageError('give the patch file once: --patch FILE or -o FILE')
    const patch = patchOption ?? outputOption
    const given = toArg ?? toOption
    const data = stringOption(values.data)
    if (data !== undefined) {
      const db = await openDataDir(data)
      try {
        const to = given ?? db.head()
        if (patch !== undefined) {
          const archive = db.diffArchive({ from: from as string, to })
          await saveArchive(ctx, toWebStream(archive), patch, 'diff')
          return
        }
        const items = await nameStatus(
          (async function* (): AsyncGenerator<DiffItem> {
            for await (const d of db.diffEntries({ from: from as string, to }))
              yield {
                path: d.path,
                change: d.change === 'created' ? 'added' : d.change,
                type: d.entryType,
              }
          })(),
        )
        printNameStatus(ctx, from as string, to, items)
      } finally {
        await db.close()
      }
      return
    }
    const client = await ctx.client()
    if (patch !== undefined) {
      const archive = await client.versions.diff(
        from as string,
        given === undefined ? {} : { to: given },
      )
      await saveArchive(ctx, archive.body, patch, 'diff')
      return
    }
    // HEAD read once, so every page compares against the same version.
    const to = given ?? (await client.files.stat('/')).hash
    const items = await nameStatus(
      (async function* (): AsyncGenerator<DiffItem> {
        for await (const c of client.versions.changesAll(from as string, { to }))
          yield { path: c.path, change: c.change, type: c.type }
      })(),
    )
    printNameStatus(ctx, from as string, to, items)
  },
}
