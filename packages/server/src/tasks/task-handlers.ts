import { isAbsolute, join } from 'node:path'
import type { Database } from '@svcdb/engine'
import type { TaskRunner } from '@svcdb/scheduler'
import { gcView } from '../dto/task-views'
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
 * phase), `reindex` (builds a directory's query indexes from `.svcdb/indexes.json`) and
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
  tasks.register('reindex', async ({ args, signal, reportProgress }) => {
    const result = await ctx.db.reindex(args.path, {
      signal,
      onProgress: (p) => reportProgress(p.total === 0 ? 0 : Math.min(0.99, p.done / p.total)),
    })
    return {
      path: result.path,
      documents: result.documents,
      built: result.built,
      duration_ms: result.durationMs,
    }
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
