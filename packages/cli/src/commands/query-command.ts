import type { EntryView, QueryBody } from '@svcdb/contract'
import type { Command } from '../command'
import { usageError } from '../cli-error'
import { formatBytes, formatTable, formatTime } from '../output/table'
import { remote } from './remote-options'
import { stringOption } from '../option-value'

/** `svcdb query`: a directory's documents matching a condition. */
export const queryCommand: Command = {
  name: 'query',
  summary: "query a directory's JSON documents (indexed by its .svcdb/indexes.json)",
  usage: '<dir>',
  details:
    'Example: svcdb query /orders --where \'{"field": "/status", "op": "eq", "value": "open"}\' --order-by /total --desc\n' +
    'Operators: eq neq gt gte lt lte in prefix contains exists; combine with {"and"|"or": [...]}, {"not": ...}.\n' +
    'One page (--limit, default 100) unless --all; --after CURSOR continues a page.',
  options: {
    where: {
      type: 'string',
      value: 'JSON',
      help: 'The condition, e.g. \'{"field":"/status","op":"eq","value":"open"}\' (default: every document).',
    },
    'order-by': { type: 'string', value: 'FIELD', help: 'Sort by this indexed field.' },
    desc: { type: 'boolean', help: 'Sort in descending order.' },
    limit: { type: 'string', value: 'N', help: 'Return at most N documents per page.' },
    after: {
      type: 'string',
      value: 'CURSOR',
      help: 'Continue after the cursor a previous page printed.',
    },
    all: { type: 'boolean', help: 'Fetch every page, not only the first.' },
    fork: { type: 'string', help: 'Query this fork instead of HEAD.' },
    snapshot: { type: 'string', help: 'Query this snapshot instead of HEAD.' },
    version: { type: 'string', value: 'HASH', help: 'Query this stored version instead of HEAD.' },
  },
  args: [1, 1],
  async run([dir], values, ctx) {
    const body: QueryBody = { path: remote(dir as string) }
    const where = stringOption(values.where)
    if (where !== undefined) {
      try {
        body.where = JSON.parse(where) as QueryBody['where']
      } catch {
        throw usageError('--where takes a JSON condition')
      }
    }
    const orderBy = stringOption(values['order-by'])
    if (orderBy !== undefined)
      body.order_by = { field: orderBy, direction: values.desc === true ? 'desc' : 'asc' }
    else if (values.desc === true) body.order_by = { field: '@path', direction: 'desc' }
    const limit = stringOption(values.limit)
    if (limit !== undefined) {
      if (!/^\d+$/.test(limit)) throw usageError('--limit takes a whole number')
      body.limit = Number(limit)
    }
    for (const key of ['after', 'fork', 'snapshot', 'version'] as const) {
      const value = stringOption(values[key])
      if (value !== undefined) body[key] = value
    }
    const client = await ctx.client()
    const table = (items: EntryView[]) =>
      formatTable(items, [
        { heading: 'size', cell: (e) => formatBytes(e.size), right: true },
        { heading: 'updated', cell: (e) => formatTime(e.updated_at) },
        { heading: 'path', cell: (e) => e.path },
      ])
    if (values.all === true) {
      const items: EntryView[] = []
      for await (const item of client.files.queryAll(body)) items.push(item)
      ctx.print(items, () => table(items))
      return
    }
    const page = await client.files.query(body)
    ctx.print(
      page,
      () => table(page.items) + (page.next === undefined ? '' : `more: --after ${page.next}\n`),
    )
    if (!ctx.json) ctx.io.stderr(`plan: ${page.plan}\n`)
  },
}
