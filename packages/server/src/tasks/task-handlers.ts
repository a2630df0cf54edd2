import { isAbsolute, join } from 'node:path'
import type { Database } from '@svcdb/engine'
import type { TaskRunner } from '@svcdb/scheduler'
import { gcView } from '../routes/tasks/task-views'
import { writeBackup } from './backup'

/** What the built-in task handlers work on. */
export interface TaskHandlersContext {
  db: Database
  /** The data directory; relative backup directories are resolved against it. */
  dataDir: string
}

const GC_PHASES = { mark: 0, scan: 0.4, sweep: 0.6, compact: 0.8 } as const

/**
 * Registers the handlers of the built-in task types: `gc` (an online collection, progress by
 * phase), `reindex` (walks the directory; rebuilding query indexes arrives with them) and
 * `backup` (a streamed export of HEAD or a snapshot to a file, keeping the newest `keep`).
 * Must run before the scheduler starts.
 */
export function registerTaskHandlers(tasks: TaskRunner, ctx: TaskHandlersContext): void {
  tasks.register('gc', async ({ args, signal, reportProgress }) => {
    const result = await ctx.db.gc({
      dryRun: args.dry_run === true,
      signal,
      onProgress: (p) => {
        const base = GC_PHASES[p.phase]
        const share = p.total !== undefined && p.total > 0 ? Math.min(1, p.done / p.total) : 0
        reportProgress(Math.min(0.99, base + share * 0.2))
      },
    })
    return gcView(result)
  })
  tasks.register('reindex', async ({ args, signal }) => {
    const entry = await ctx.db.stat(args.path)
    if (entry.entryType !== 'directory') throw new Error(`${args.path} is not a directory`)
    let files = 0
    for await (const _ of ctx.db.list(args.path, { depth: -1 })) {
      void _
      if (++files % 1000 === 0) signal.throwIfAborted()
    }
    return { path: entry.path, files }
  })
  tasks.register('backup', async ({ args, signal }) => {
    const dir =
      args.dir === undefined
        ? join(ctx.dataDir, 'backups')
        : isAbsolute(args.dir)
          ? args.dir
          : join(ctx.dataDir, args.dir)
    return writeBackup(ctx.db, {
      dir,
      signal,
      ...(args.snapshot === undefined ? {} : { snapshot: args.snapshot }),
      ...(args.keep === undefined ? {} : { keep: args.keep }),
    })
  })
}
