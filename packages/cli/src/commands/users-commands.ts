import type { CommandGroup } from '../command'
import { usageError } from '../cli-error'
import { stringOption } from '../option-value'
import { formatKeyValue } from '../output/key-value'
import { getCommand, listCommand, removeCommand } from './resource-commands'
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
    listCommand({
      summary: 'list users',
      list: (client) => client.users.list(),
      columns: [
        { heading: 'user_id', cell: (u) => u.user_id },
        { heading: 'username', cell: (u) => u.username },
        { heading: 'email', cell: (u) => u.email ?? '' },
        { heading: 'active', cell: (u) => (u.is_active ? 'yes' : 'no') },
        { heading: 'tags', cell: (u) => u.tags.join(',') },
      ],
    }),
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
    getCommand({
      summary: 'show a user',
      usage: '<user>',
      get: async (client, ref) => client.users.get(await resolveUserId(client, ref)),
    }),
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
    removeCommand({
      name: 'deactivate',
      summary: 'deactivate a user (their keys stop working)',
      usage: '<user>',
      remove: async (client, ref) => client.users.deactivate(await resolveUserId(client, ref)),
      done: (result) => `deactivated ${result.user_id}\n`,
    }),
  ],
}
