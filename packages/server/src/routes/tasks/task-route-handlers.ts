import { routes } from '@svcdb/contract'
import { isEngineError } from '@svcdb/engine'
import type { Database } from '@svcdb/engine'
import type { Scheduler } from '@svcdb/scheduler'
import { cronView, gcView, taskRefView, taskView } from '../../dto/task-views'
import { sendView } from '../../dto/send-view'
import { ServerError } from '../../errors/server-error'
import { handleRoute } from '../../routing/route-handler'
import type { RouteHandler } from '../../routing/route-handler'

/** What the task, cron and GC routes use. */
export interface TaskRoutesContext {
  db: Database
  scheduler: Scheduler
}

/** `/system/gc`, `/system/tasks/*` and `/system/cron/*` (all root). */
export function taskRouteHandlers(ctx: TaskRoutesContext): RouteHandler[] {
  const { tasks, cron } = ctx.scheduler
  return [
    handleRoute(routes.systemGc, async (c, { query }) => {
      let result
      try {
        result = await ctx.db.gc({ dryRun: query.dry_run, signal: c.req.raw.signal })
      } catch (err) {
        // Another collection running is not a failure of this one: the caller may retry.
        if (isEngineError(err, 'CONFLICT'))
          throw new ServerError(
            'CONFLICT',
            'a garbage collection is already running; retry when it ends',
          )
        // The spec answers a GC failure with 500; the cause goes to the log, not the caller.
        throw new ServerError('INTERNAL', 'garbage collection failed', {
          cause: err,
        })
      }
      return sendView(c, routes.systemGc, gcView(result), 200)
    }),
    handleRoute(routes.tasksReindex, async (c, { body }) => {
      const task = await tasks.enqueue('reindex', { path: body.path })
      return sendView(c, routes.tasksReindex, taskRefView(task), 200)
    }),
    handleRoute(routes.tasksGc, async (c, { body }) => {
      const task = await tasks.enqueue('gc', { dry_run: body.dry_run })
      return sendView(c, routes.tasksGc, taskRefView(task), 200)
    }),
    handleRoute(routes.tasksList, async (c) => {
      return sendView(c, routes.tasksList, { items: (await tasks.list()).map(taskView) }, 200)
    }),
    handleRoute(routes.tasksGet, async (c, { params }) => {
      return sendView(c, routes.tasksGet, taskView(await tasks.get(params.id)), 200)
    }),
    handleRoute(routes.tasksCancel, async (c, { params }) => {
      const task = await tasks.cancel(params.id)
      return sendView(c, routes.tasksCancel, { id: task.id, status: task.status }, 200)
    }),
    handleRoute(routes.cronList, async (c) => {
      return sendView(c, routes.cronList, { items: (await cron.list()).map(cronView) }, 200)
    }),
    handleRoute(routes.cronCreate, async (c, { body }) => {
      const schedule = await cron.create({
        id: body.id,
        schedule: body.schedule,
        taskType: body.task_type,
        args: body.args,
        enabled: body.enabled,
      })
      return sendView(c, routes.cronCreate, cronView(schedule), 201)
    }),
    handleRoute(routes.cronUpdate, async (c, { params, body }) => {
      const schedule = await cron.update(params.id, {
        schedule: body.schedule,
        taskType: body.task_type,
        args: body.args,
        enabled: body.enabled,
      })
      return sendView(c, routes.cronUpdate, cronView(schedule), 200)
    }),
    handleRoute(routes.cronDelete, async (c, { params }) => {
      await cron.delete(params.id)
      return sendView(c, routes.cronDelete, { id: params.id, deleted: true }, 200)
    }),
  ]
}
