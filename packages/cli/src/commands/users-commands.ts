import type { CommandGroup } from '../command'
import { usageError } from '../cli-error'
import { stringOption } from '../option-value'
import { formatKeyValue } from '../output/key-value'
import { formatTable } from '../output/table'
import { resolveUserId } from './user-ref'

const tags = (value: unknown) =>
  stringOption(value)
    ?.split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')

/** `svcdb users …` (root) */
export const usersGroup: CommandGroup = {
  name: 'users',
  summary: 'create, list, show, update and deactivate users (root)',
  details: 'A user is named by username or by id wherever a command takes one.',
  subcommands: [
    {
      name: 'list',
      summary: 'list users',
      usage: '',
      args: [0, 0],
      async run(_p, _v, ctx) {
        const users = await (await ctx.client()).users.list()
        ctx.print(users, () =>
          formatTable(users, [
            { heading: 'user_id', cell: (u) => u.user_id },
            { heading: 'username', cell: (u) => u.username },
            { heading: 'email', cell: (u) => u.email ?? '' },
            { heading: 'active', cell: (u) => (u.is_active ? 'yes' : 'no') },
            { heading: 'tags', cell: (u) => u.tags.join(',') },
          ]),
        )
      },
    },
    {
      name: 'create',
      summary: 'create a user',
      usage: '<username>',
      options: {
        email: { type: 'string', help: "The user's email address (for magic links)." },
        tags: {
          type: 'string',
          value: 'TAG,…',
          help: 'Comma-separated tags that groups can select on.',
        },
      },
      args: [1, 1],
      async run([username], values, ctx) {
        const email = stringOption(values.email)
        const tagList = tags(values.tags)
        const user = await (
          await ctx.client()
        ).users.create({
          username: username as string,
          ...(email === undefined ? {} : { email }),
          ...(tagList === undefined ? {} : { tags: tagList }),
        })
        ctx.print(user, () => formatKeyValue(user))
      },
    },
    {
      name: 'get',
      summary: 'show a user',
      usage: '<user>',
      args: [1, 1],
      async run([id], _v, ctx) {
        const client = await ctx.client()
        const user = await client.users.get(await resolveUserId(client, id as string))
        ctx.print(user, () => formatKeyValue(user))
      },
    },
    {
      name: 'update',
      summary: 'change a user',
      usage: '<user>',
      options: {
        username: { type: 'string', help: 'A new username.' },
        email: { type: 'string', help: 'A new email address.' },
        tags: { type: 'string', value: 'TAG,…', help: 'Replace the tags (comma-separated).' },
        active: { type: 'string', value: 'true|false', help: 'Reactivate or deactivate the user.' },
      },
      wireOptions: { is_active: '--active' },
      args: [1, 1],
      async run([id], values, ctx) {
        const active = stringOption(values.active)
        if (active !== undefined && active !== 'true' && active !== 'false')
          throw usageError('--active takes true or false')
        const input: Record<string, unknown> = {}
        if (stringOption(values.username) !== undefined)
          input.username = stringOption(values.username)
        if (stringOption(values.email) !== undefined) input.email = stringOption(values.email)
        if (tags(values.tags) !== undefined) input.tags = tags(values.tags)
        if (active !== undefined) input.is_active = active === 'true'
        const client = await ctx.client()
        const user = await client.users.update(
          await resolveUserId(client, id as string),
          input as never,
        )
        ctx.print(user, () => formatKeyValue(user))
      },
    },
    {
      name: 'deactivate',
      summary: 'deactivate a user (their keys stop working)',
      usage: '<user>',
      args: [1, 1],
      async run([id], _v, ctx) {
        const client = await ctx.client()
        const result = await client.users.deactivate(await resolveUserId(client, id as string))
        ctx.print(result, () => `deactivated ${result.user_id}\n`)
      },
    },
  ],
}
