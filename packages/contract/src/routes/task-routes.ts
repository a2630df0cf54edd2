import * as v from 'valibot'
import { booleanQuerySchema } from '../query-values'
import { defineRoute } from '../route'
import {
  createCronBodySchema,
  cronScheduleSchema,
  gcResultSchema,
  patchCronBodySchema,
  taskRefSchema,
  taskSchema,
} from '../tasks'

const idParams = v.object({ id: v.pipe(v.string(), v.minLength(1)) })

/** Routes of /system/gc, /system/tasks and /system/cron (all root). */
export const taskRoutes = {
  systemGc: defineRoute({
    id: 'system.gc',
    method: 'POST',
    path: '/system/gc',
    auth: 'root',
    request: { query: v.object({ dry_run: booleanQuerySchema }) },
    response: gcResultSchema,
  }),
  tasksReindex: defineRoute({
    id: 'tasks.reindex',
    method: 'POST',
    path: '/system/tasks/reindex',
    auth: 'root',
    request: { body: v.object({ path: v.pipe(v.string(), v.minLength(1)) }) },
    response: taskRefSchema,
  }),
  tasksGc: defineRoute({
    id: 'tasks.gc',
    method: 'POST',
    path: '/system/tasks/gc',
    auth: 'root',
    request: { body: v.optional(v.object({ dry_run: v.optional(v.boolean(), false) }), {}) },
    response: taskRefSchema,
  }),
  tasksList: defineRoute({
    id: 'tasks.list',
    method: 'GET',
    path: '/system/tasks',
    auth: 'root',
    response: v.object({ items: v.array(taskSchema) }),
  }),
  tasksGet: defineRoute({
    id: 'tasks.get',
    method: 'GET',
    path: '/system/tasks/{id}',
    auth: 'root',
    request: { params: idParams },
    response: taskSchema,
  }),
  tasksCancel: defineRoute({
    id: 'tasks.cancel',
    method: 'DELETE',
    path: '/system/tasks/{id}',
    auth: 'root',
    request: { params: idParams },
    response: v.object({ id: v.string(), status: v.string() }),
  }),
  cronList: defineRoute({
    id: 'cron.list',
    method: 'GET',
    path: '/system/cron',
    auth: 'root',
    response: v.object({ items: v.array(cronScheduleSchema) }),
  }),
  cronCreate: defineRoute({
    id: 'cron.create',
    method: 'POST',
    path: '/system/cron',
    auth: 'root',
    request: { body: createCronBodySchema },
    response: cronScheduleSchema,
    successStatus: 201,
  }),
  cronUpdate: defineRoute({
    id: 'cron.update',
    method: 'PATCH',
    path: '/system/cron/{id}',
    auth: 'root',
    request: { params: idParams, body: patchCronBodySchema },
    response: cronScheduleSchema,
  }),
  cronDelete: defineRoute({
    id: 'cron.delete',
    method: 'DELETE',
    path: '/system/cron/{id}',
    auth: 'root',
    request: { params: idParams },
    response: v.object({ id: v.string(), deleted: v.boolean() }),
  }),
} as const
