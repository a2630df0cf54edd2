import type { CommandGroup } from '../command'
import { usageError } from '../cli-error'
import { formatTable, formatTime } from '../output/table'
import { stringOption } from '../option-value'
import { formatKeyValue } from '../output/key-value'
import { PERMISSION_HELP } from './permission-help'

// The group fields each option sets.
const GROUP_WIRE_OPTIONS = {
  default_allow: '--allow',
  default_deny: '--deny',
  query_field: '--field',
  query_operator: '--op',
  query_value: '--value',
}

const tags = (value: unknown) =>
  stringOption(value)
    ?.split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')

/** `svcdb users …` (root) */
export const usersGroup: CommandGroup = {
  name: 'users',
  summary: 'create, list, show, update and deactivate users (root)',
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
      usage: '<user_id>',
      args: [1, 1],
      async run([id], _v, ctx) {
        const user = await (await ctx.client()).users.get(id as string)
        ctx.print(user, () => formatKeyValue(user))
      },
    },
    {
      name: 'update',
      summary: 'change a user',
      usage: '<user_id>',
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
        const user = await (await ctx.client()).users.update(id as string, input as never)
        ctx.print(user, () => formatKeyValue(user))
      },
    },
    {
      name: 'deactivate',
      summary: 'deactivate a user (their keys stop working)',
      usage: '<user_id>',
      args: [1, 1],
      async run([id], _v, ctx) {
        const result = await (await ctx.client()).users.deactivate(id as string)
        ctx.print(result, () => `deactivated ${result.user_id}\n`)
      },
    },
  ],
}

/** `svcdb groups …` (root) */
export const groupsGroup: CommandGroup = {
  name: 'groups',
  summary: 'create, list, show, update and delete groups (root)',
  subcommands: [
    {
      name: 'list',
      summary: 'list groups',
      usage: '',
      args: [0, 0],
      async run(_p, _v, ctx) {
        const groups = await (await ctx.client()).groups.list()
        ctx.print(groups, () =>
          formatTable(groups, [
            { heading: 'name', cell: (g) => g.name },
            { heading: 'allow', cell: (g) => g.default_allow },
            { heading: 'deny', cell: (g) => g.default_deny },
            {
              heading: 'members',
              cell: (g) => `${g.query_field} ${g.query_operator} ${g.query_value}`,
            },
          ]),
        )
      },
    },
    {
      name: 'create',
      summary: 'create a group: members by a query on user fields',
      usage: '<name>',
      details:
        'Example: svcdb groups create eng --allow "/eng/**" --field tags --op has --value eng',
      options: {
        allow: {
          type: 'string',
          value: 'GLOB',
          help: 'Paths the members may use (a path pattern).',
        },
        deny: {
          type: 'string',
          value: 'GLOB',
          help: 'Paths denied to the members, even if allowed.',
        },
        field: { type: 'string', help: 'The user field that selects members (e.g. tags).' },
        op: { type: 'string', help: 'The comparison: eq, gt; on tags also has, has_any, has_all.' },
        value: { type: 'string', help: 'The value the field is compared with.' },
      },
      wireOptions: GROUP_WIRE_OPTIONS,
      args: [1, 1],
      async run([name], values, ctx) {
        for (const flag of ['field', 'op', 'value'])
          if (stringOption(values[flag]) === undefined) throw usageError(`--${flag} is required`)
        const group = await (
          await ctx.client()
        ).groups.create({
          name: name as string,
          default_allow: stringOption(values.allow) ?? '',
          default_deny: stringOption(values.deny) ?? '',
          query_field: stringOption(values.field) as string,
          query_operator: stringOption(values.op) as string,
          query_value: stringOption(values.value) as string,
        } as never)
        ctx.print(group, () => formatKeyValue(group))
      },
    },
    {
      name: 'get',
      summary: 'show a group',
      usage: '<name>',
      args: [1, 1],
      async run([name], _v, ctx) {
        const group = await (await ctx.client()).groups.get(name as string)
        ctx.print(group, () => formatKeyValue(group))
      },
    },
    {
      name: 'update',
      summary: 'change a group',
      usage: '<name>',
      options: {
        allow: {
          type: 'string',
          value: 'GLOB',
          help: 'Paths the members may use (a path pattern).',
        },
        deny: {
          type: 'string',
          value: 'GLOB',
          help: 'Paths denied to the members, even if allowed.',
        },
        field: { type: 'string', help: 'The user field that selects members (e.g. tags).' },
        op: { type: 'string', help: 'The comparison: eq, gt; on tags also has, has_any, has_all.' },
        value: { type: 'string', help: 'The value the field is compared with.' },
      },
      wireOptions: GROUP_WIRE_OPTIONS,
      args: [1, 1],
      async run([name], values, ctx) {
        const input: Record<string, string> = {}
        const map = {
          allow: 'default_allow',
          deny: 'default_deny',
          field: 'query_field',
          op: 'query_operator',
          value: 'query_value',
        } as const
        for (const [flag, field] of Object.entries(map)) {
          const value = stringOption(values[flag])
          if (value !== undefined) input[field] = value
        }
        const group = await (await ctx.client()).groups.update(name as string, input as never)
        ctx.print(group, () => formatKeyValue(group))
      },
    },
    {
      name: 'delete',
      summary: 'delete a group and its shares',
      usage: '<name>',
      args: [1, 1],
      async run([name], _v, ctx) {
        const result = await (await ctx.client()).groups.delete(name as string)
        ctx.print(result, () => `deleted group ${result.name}\n`)
      },
    },
  ],
}

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
          ctx.print(keys, () =>
            formatTable(keys, [
              { heading: 'key_id', cell: (k) => k.key_id },
              { heading: 'user_id', cell: (k) => k.user_id },
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
        const user = stringOption(values.user)
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
