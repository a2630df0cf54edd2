import type { CommandGroup } from '../command'
import { usageError } from '../cli-error'
import { stringOption } from '../option-value'
import { formatKeyValue } from '../output/key-value'
import { formatTable, formatTime } from '../output/table'
import { remote } from './remote-options'
import { removeCommand } from './resource-commands'
import { resolveUserId, usernames } from './user-ref'

const PERMISSIONS_HELP =
  'FLAGS is 8 permission letters, crudlify or - each (-r--l--- reads and lists); see `svcdb help keys`.'

const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : [])

/** `svcdb shares …`: grants of paths to users and groups. */
export const sharesGroup: CommandGroup = {
  name: 'shares',
  summary: 'share paths with users and groups, list and remove shares',
  details: `A share grants exactly FLAGS on a path and everything below it. ${PERMISSIONS_HELP}`,
  subcommands: [
    {
      name: 'list',
      summary: 'list the shares (on a path when given)',
      usage: '[path]',
      args: [0, 1],
      async run([path], _v, ctx) {
        const client = await ctx.client()
        const items = await client.files.shares.list(path === undefined ? undefined : remote(path))
        const names = ctx.json ? new Map<string, string>() : await usernames(client)
        ctx.print(items, () =>
          formatTable(items, [
            { heading: 'path', cell: (s) => s.path },
            {
              heading: 'with',
              cell: (s) =>
                s.group !== undefined
                  ? `group ${s.group}`
                  : `user ${names.get(s.user_id ?? '') ?? s.user_id ?? ''}`,
            },
            { heading: 'permissions', cell: (s) => s.permissions },
            { heading: 'created', cell: (s) => formatTime(s.created_at) },
          ]),
        )
      },
    },
    {
      name: 'add',
      summary: 'share paths with users and groups',
      usage: '<path...>',
      details:
        'Example: svcdb shares add /reports --user alice --group eng --permissions -r--l---\n' +
        PERMISSIONS_HELP,
      options: {
        user: {
          type: 'string',
          multiple: true,
          value: 'USER',
          help: 'Share with this user (username or id).',
        },
        group: { type: 'string', multiple: true, help: 'Share with this group (by name).' },
        permissions: {
          type: 'string',
          value: 'FLAGS',
          help: 'What the share allows: 8 letters of crudlify or - (required).',
        },
      },
      wireOptions: { users: '--user', groups: '--group', paths: '<path>' },
      args: [1, 1000],
      async run(paths, values, ctx) {
        const permissions = stringOption(values.permissions)
        if (permissions === undefined) throw usageError('--permissions FLAGS is required')
        const users = list(values.user)
        const groups = list(values.group)
        if (users.length + groups.length === 0)
          throw usageError('name at least one --user or --group')
        const client = await ctx.client()
        const userIds = await Promise.all(users.map((u) => resolveUserId(client, u)))
        const result = await client.files.shares.share({
          paths: paths.map(remote),
          permissions,
          ...(userIds.length === 0 ? {} : { users: userIds }),
          ...(groups.length === 0 ? {} : { groups }),
        })
        ctx.print(
          result,
          () =>
            `shared ${result.items.length} grant${result.items.length === 1 ? '' : 's'}` +
            ` (${result.notified} notified by email)\n`,
        )
      },
    },
    {
      name: 'remove',
      summary: "remove the shares on a path (only one user's or group's when given)",
      usage: '<path>',
      options: {
        user: { type: 'string', value: 'USER', help: 'Only the share with this user.' },
        group: { type: 'string', help: 'Only the share with this group.' },
      },
      args: [1, 1],
      async run([path], values, ctx) {
        const userRef = stringOption(values.user)
        const group = stringOption(values.group)
        if (userRef !== undefined && group !== undefined)
          throw usageError('give at most one of --user and --group')
        const client = await ctx.client()
        const user = userRef === undefined ? undefined : await resolveUserId(client, userRef)
        const result = await client.files.shares.unshare({
          path: remote(path as string),
          ...(user === undefined ? {} : { user }),
          ...(group === undefined ? {} : { group }),
        })
        ctx.print(result, () => formatKeyValue(result))
      },
    },
  ],
}

/** `svcdb links …`: share links (keys of their own, no user). */
export const linksGroup: CommandGroup = {
  name: 'links',
  summary: 'create, list and revoke share links',
  details:
    'A share link is a key of its own (no user) that allows FLAGS on its paths only; give it\n' +
    `to anyone who should have that access. ${PERMISSIONS_HELP}`,
  subcommands: [
    {
      name: 'create',
      summary: 'create a share link for paths; its key is printed once',
      usage: '<path...>',
      details: 'Example: svcdb links create /reports/2026 --expires-in-days 7',
      options: {
        permissions: {
          type: 'string',
          value: 'FLAGS',
          help: 'What the link allows: 8 letters of crudlify or - (default -r--l---, read and list).',
        },
        'expires-in-days': {
          type: 'string',
          value: 'N',
          help: 'Expire the link after N days (1 to 3650).',
        },
      },
      wireOptions: { paths: '<path>' },
      args: [1, 1000],
      async run(paths, values, ctx) {
        const days = stringOption(values['expires-in-days'])
        if (days !== undefined && !/^\d+$/.test(days))
          throw usageError('--expires-in-days takes a whole number')
        const link = await (
          await ctx.client()
        ).files.shares.createLink({
          paths: paths.map(remote),
          permissions: stringOption(values.permissions) ?? '-r--l---',
          ...(days === undefined ? {} : { expires_in_days: Number(days) }),
        })
        ctx.print(link, () => formatKeyValue(link))
      },
    },
    {
      name: 'list',
      summary: 'list share links (on a path when given)',
      usage: '[path]',
      args: [0, 1],
      async run([path], _v, ctx) {
        const items = await (
          await ctx.client()
        ).files.shares.listLinks(path === undefined ? undefined : remote(path))
        ctx.print(items, () =>
          formatTable(items, [
            { heading: 'key_id', cell: (l) => l.key_id },
            { heading: 'permissions', cell: (l) => l.permissions },
            { heading: 'expires', cell: (l) => formatTime(l.expires_at) },
            { heading: 'paths', cell: (l) => l.paths.join(', ') },
          ]),
        )
      },
    },
    removeCommand({
      name: 'revoke',
      summary: 'revoke a share link: its key stops working at once',
      usage: '<key_id>',
      remove: (client, id) => client.files.shares.revokeLink(id),
      done: (_result, id) => `revoked ${id}\n`,
    }),
  ],
}
