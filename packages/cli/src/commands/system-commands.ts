import type { Command, CommandGroup, OptionSpecs } from '../command'
import { usageError } from '../cli-error'
import { formatBytes, formatTime } from '../output/table'
import { stringOption } from '../option-value'
import { formatKeyValue } from '../output/key-value'
import { getCommand, listCommand, removeCommand } from './resource-commands'

function parseJsonObject(text: string | undefined, flag: string): Record<string, unknown> {
  if (text === undefined) return {}
  try {
    const value = JSON.parse(text) as unknown
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>
  } catch {
    // answered below
  }
  throw usageError(`${flag} takes a JSON object`)
}

/** `--dry-run` of `gc` and `tasks gc`. */
const DRY_RUN_OPTION: OptionSpecs = {
  'dry-run': { type: 'boolean', help: 'Report what would be reclaimed without deleting anything.' },
}

/** `svcdb tasks …` (root) */
export const tasksGroup: CommandGroup = {
  name: 'tasks',
  summary: 'list, show and cancel background tasks; enqueue gc and reindex (root)',
  subcommands: [
    listCommand({
      summary: 'list tasks',
      list: (client) => client.tasks.list(),
      columns: [
        { heading: 'id', cell: (t) => t.id },
        { heading: 'type', cell: (t) => t.task_type },
        { heading: 'status', cell: (t) => t.status },
        { heading: 'progress', cell: (t) => `${Math.round(t.progress * 100)}%`, right: true },
        { heading: 'created', cell: (t) => formatTime(t.created_at) },
      ],
    }),
    getCommand({
      summary: 'show a task',
      usage: '<id>',
      get: (client, id) => client.tasks.get(id),
    }),
    removeCommand({
      name: 'cancel',
      summary: 'cancel a task (a running one is aborted)',
      usage: '<id>',
      remove: (client, id) => client.tasks.cancel(id),
      done: (result) => `${result.id} ${result.status}\n`,
    }),
    {
      name: 'gc',
      summary: 'enqueue a garbage collection',
      usage: '',
      options: DRY_RUN_OPTION,
      args: [0, 0],
      async run(_p, values, ctx) {
        const task = await (await ctx.client()).tasks.gc({ dryRun: values['dry-run'] === true })
        ctx.print(task, () => `${task.id}\n`)
      },
    },
    {
      name: 'reindex',
      summary: "enqueue a reindex of a directory's query indexes",
      usage: '<remote>',
      args: [1, 1],
      async run([path], _v, ctx) {
        const task = await (await ctx.client()).tasks.reindex(path as string)
        ctx.print(task, () => `${task.id}\n`)
      },
    },
  ],
}

/** `svcdb cron …` (root) */
export const cronGroup: CommandGroup = {
  name: 'cron',
  summary: 'list, create, update and delete cron schedules (root)',
  subcommands: [
    listCommand({
      summary: 'list schedules',
      list: (client) => client.cron.list(),
      columns: [
        { heading: 'id', cell: (c) => c.id },
        { heading: 'schedule', cell: (c) => c.schedule },
        { heading: 'type', cell: (c) => c.task_type },
        { heading: 'enabled', cell: (c) => (c.enabled ? 'yes' : 'no') },
        {
          heading: 'next run',
          cell: (c) => (c.next_run_at === undefined ? '' : formatTime(c.next_run_at)),
        },
      ],
    }),
    {
      name: 'create',
      summary: 'create a schedule (five-field UTC cron)',
      usage: '<id> <schedule> <gc|reindex|backup>',
      details: 'Example: svcdb cron create nightly-gc "0 3 * * *" gc --args \'{"dry_run":false}\'',
      options: {
        args: { type: 'string', value: 'JSON', help: "A JSON object of the task's arguments." },
        disabled: { type: 'boolean', help: 'Create the schedule switched off.' },
      },
      wireOptions: { id: '<id>', schedule: '<schedule>', task_type: '<type>' },
      args: [3, 3],
      async run([id, schedule, type], values, ctx) {
        const created = await (
          await ctx.client()
        ).cron.create({
          id: id as string,
          schedule: schedule as string,
          task_type: type as 'gc',
          args: parseJsonObject(stringOption(values.args), '--args'),
          enabled: values.disabled !== true,
        })
        ctx.print(created, () => formatKeyValue(created))
      },
    },
    {
      name: 'update',
      summary: 'change a schedule',
      usage: '<id>',
      options: {
        schedule: { type: 'string', value: 'CRON', help: 'A new five-field UTC cron expression.' },
        type: { type: 'string', help: 'A new task type: gc, reindex or backup.' },
        args: { type: 'string', value: 'JSON', help: "A new JSON object of the task's arguments." },
        enabled: { type: 'string', value: 'true|false', help: 'Switch the schedule on or off.' },
      },
      wireOptions: { task_type: '--type' },
      args: [1, 1],
      async run([id], values, ctx) {
        const input: Record<string, unknown> = {}
        if (stringOption(values.schedule) !== undefined)
          input.schedule = stringOption(values.schedule)
        if (stringOption(values.type) !== undefined) input.task_type = stringOption(values.type)
        if (stringOption(values.args) !== undefined)
          input.args = parseJsonObject(stringOption(values.args), '--args')
        const enabled = stringOption(values.enabled)
        if (enabled !== undefined) {
          if (enabled !== 'true' && enabled !== 'false')
            throw usageError('--enabled takes true or false')
          input.enabled = enabled === 'true'
        }
        const updated = await (await ctx.client()).cron.update(id as string, input as never)
        ctx.print(updated, () => formatKeyValue(updated))
      },
    },
    removeCommand({
      name: 'delete',
      summary: 'delete a schedule',
      usage: '<id>',
      remove: (client, id) => client.cron.delete(id),
      done: (result) => `deleted ${result.id}\n`,
    }),
  ],
}

/** `svcdb events tail` */
export const eventsGroup: CommandGroup = {
  name: 'events',
  summary: 'follow the event stream',
  subcommands: [
    {
      name: 'tail',
      summary: 'print events as they happen until interrupted (one JSON line each with --json)',
      usage: '',
      options: {
        events: {
          type: 'string',
          value: 'TYPE,…',
          help: 'Only these event types, comma-separated (e.g. entries_created,entries_deleted).',
        },
        'path-prefix': {
          type: 'string',
          value: 'PATH',
          help: 'Only events about paths under this prefix.',
        },
        count: { type: 'string', value: 'N', help: 'Stop after N events.' },
      },
      args: [0, 0],
      async run(_p, values, ctx) {
        const client = await ctx.client()
        const countText = stringOption(values.count)
        if (countText !== undefined && !/^\d+$/.test(countText))
          throw usageError('--count takes a whole number')
        const limit = countText === undefined ? Number.POSITIVE_INFINITY : Number(countText)
        const controller = new AbortController()
        const stop = () => controller.abort()
        process.once('SIGINT', stop)
        process.once('SIGTERM', stop)
        const types = stringOption(values.events)?.split(',') as never
        const prefix = stringOption(values['path-prefix'])
        let seen = 0
        let opens = 0
        // On stderr, so stdout stays the events alone: says when what happens is seen.
        const onOpen = () =>
          ctx.io.stderr(
            opens++ === 0
              ? 'svcdb events tail: listening (Ctrl-C stops)\n'
              : 'svcdb events tail: reconnected\n',
          )
        try {
          if (limit === 0) return
          for await (const event of client.events.subscribe({
            signal: controller.signal,
            onOpen,
            ...(types === undefined ? {} : { events: types }),
            ...(prefix === undefined ? {} : { pathPrefix: prefix }),
          })) {
            if (ctx.json) ctx.io.stdout(`${JSON.stringify(event)}\n`)
            else
              ctx.io.stdout(
                `${formatTime(event.timestamp)}  ${event.event_type}  ${JSON.stringify(event.payload)}\n`,
              )
            if (++seen >= limit) break
          }
        } finally {
          process.off('SIGINT', stop)
          process.off('SIGTERM', stop)
        }
      },
    },
  ],
}

/** `gc`, `stats`. */
export const systemCommands: Command[] = [
  {
    name: 'gc',
    summary: 'collect garbage now and report what was reclaimed (root)',
    usage: '',
    options: DRY_RUN_OPTION,
    args: [0, 0],
    async run(_p, values, ctx) {
      const result = await (await ctx.client()).system.gc({ dryRun: values['dry-run'] === true })
      ctx.print(
        result,
        () =>
          `${result.dry_run ? 'would reclaim' : 'reclaimed'} ${formatBytes(result.reclaimed_bytes)} ` +
          `(${result.garbage_entries} garbage, ${result.live_entries} live) in ${result.duration_ms} ms\n`,
      )
    },
  },
  {
    name: 'stats',
    summary: 'show the server statistics',
    usage: '',
    args: [0, 0],
    async run(_p, _v, ctx) {
      const stats = await (await ctx.client()).system.stats()
      ctx.print(stats, () => formatKeyValue(stats))
    },
  },
]
