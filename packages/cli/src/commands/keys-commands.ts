import type { CommandGroup } from '../command'
import { usageError } from '../cli-error'
import { stringOption } from '../option-value'
import { formatKeyValue } from '../output/key-value'
import { formatTable, formatTime } from '../output/table'
import { PERMISSION_HELP } from './permission-help'
import { resolveUserId, usernames } from './user-ref'

/** `svcdb keys …` */
export const keysGroup: CommandGroup = {
  name: 'keys',
  summary: "create, list and revoke API keys (--admin: any user's, root)",
  details: PERMISSION_HELP,
  subcommands: [
    {
      name: 'list',
      summary: 'list your keys (--admin: every key)',
      usage: '',
      options: { admin: { type: 'boolean', help: "List every user's keys (root)." } },
      args: [0, 0],
      async run(_p, values, ctx) {
        const client = await ctx.client()
        if (values.admin === true) {
          const keys = await client.keys.listAdmin()
          const names = ctx.json ? new Map<string, string>() : await usernames(client)
          ctx.print(keys, () =>
            formatTable(keys, [
              { heading: 'key_id', cell: (k) => k.key_id },
              { heading: 'user', cell: (k) => names.get(k.user_id) ?? k.user_id },
              { heading: 'created', cell: (k) => formatTime(Date.parse(k.created_at)) },
              { heading: 'revoked', cell: (k) => (k.is_revoked ? 'yes' : 'no') },
            ]),
          )
          return
        }
        const keys = await client.keys.list()
        ctx.print(keys, () =>
          formatTable(keys, [
            { heading: 'key_id', cell: (k) => k.key_id },
            { heading: 'user_id', cell: (k) => k.user_id ?? '(share)' },
            { heading: 'label', cell: (k) => k.label ?? '' },
            { heading: 'expires', cell: (k) => formatTime(k.expires_at) },
          ]),
        )
      },
    },
    {
      name: 'create',
      summary: 'create a key; it is printed once',
      usage: '',
      details:
        'The key is printed once: keep it. --admin --user USER creates an administrative key\n' +
        'for a user (root), --user USER a scoped key for another user (root).\n\n' +
        PERMISSION_HELP,
      options: {
        admin: { type: 'boolean', help: 'Create an administrative key for a user (root).' },
        user: {
          type: 'string',
          value: 'USER',
          help: 'The user (username or id) the key is for (root; default: you).',
        },
        label: { type: 'string', help: 'A name that reminds you what the key is for.' },
        rule: {
          type: 'string',
          multiple: true,
          value: 'GLOB=FLAGS',
          help: 'Restrict the key on paths matching GLOB to FLAGS (see below); first match wins.',
        },
        'expires-in-days': {
          type: 'string',
          value: 'N',
          help: 'Expire the key after N days (default 730, at most 3650).',
        },
      },
      wireOptions: { rules: '--rule', user_id: '--user' },
      args: [0, 0],
      async run(_p, values, ctx) {
        const client = await ctx.client()
        const userRef = stringOption(values.user)
        const user = userRef === undefined ? undefined : await resolveUserId(client, userRef)
        if (values.admin === true) {
          const key = await client.keys.createAdmin(user === undefined ? {} : { user_id: user })
          ctx.print(key, () => formatKeyValue(key))
          return
        }
        const rules = ((values.rule as string[] | undefined) ?? []).map((rule) => {
          const at = rule.lastIndexOf('=')
          if (at <= 0)
            throw usageError(`--rule takes GLOB=FLAGS, e.g. "/docs/**=-r--l---", not ${rule}`)
          return { [rule.slice(0, at)]: rule.slice(at + 1) }
        })
        const days = stringOption(values['expires-in-days'])
        if (days !== undefined && !/^\d+$/.test(days))
          throw usageError('--expires-in-days takes a whole number')
        const label = stringOption(values.label)
        const key = await client.keys.create({
          ...(label === undefined ? {} : { label }),
          ...(rules.length === 0 ? {} : { rules }),
          ...(days === undefined ? {} : { expires_in_days: Number(days) }),
          ...(user === undefined ? {} : { user_id: user }),
        })
        ctx.print(key, () => formatKeyValue(key))
      },
    },
    {
      name: 'revoke',
      summary: 'revoke a key (--admin: any key, root)',
      usage: '<key_id>',
      options: { admin: { type: 'boolean', help: "Revoke any user's key (root)." } },
      args: [1, 1],
      async run([id], values, ctx) {
        const client = await ctx.client()
        const result =
          values.admin === true
            ? await client.keys.revokeAdmin(id as string)
            : await client.keys.revoke(id as string)
        ctx.print(result, () => `revoked ${result.key_id}\n`)
      },
    },
  ],
}
