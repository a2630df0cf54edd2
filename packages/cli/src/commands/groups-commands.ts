import type { CommandGroup } from '../command'
import { usageError } from '../cli-error'
import { stringOption } from '../option-value'
import { formatKeyValue } from '../output/key-value'
import { getCommand, listCommand, removeCommand } from './resource-commands'

// The group fields each option sets.
/** The options of `groups create` and `groups update`. */
const GROUP_OPTIONS = {
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
} as const

const GROUP_WIRE_OPTIONS = {
  default_allow: '--allow',
  default_deny: '--deny',
  query_field: '--field',
  query_operator: '--op',
  query_value: '--value',
}

/** `svcdb groups …` (root) */
export const groupsGroup: CommandGroup = {
  name: 'groups',
  summary: 'create, list, show, update and delete groups (root)',
  subcommands: [
    listCommand({
      summary: 'list groups',
      list: (client) => client.groups.list(),
      columns: [
        { heading: 'name', cell: (g) => g.name },
        { heading: 'allow', cell: (g) => g.default_allow },
        { heading: 'deny', cell: (g) => g.default_deny },
        {
          heading: 'members',
          cell: (g) => `${g.query_field} ${g.query_operator} ${g.query_value}`,
        },
      ],
    }),
    {
      name: 'create',
      summary: 'create a group: members by a query on user fields',
      usage: '<name>',
      details:
        'Example: svcdb groups create eng --allow "/eng/**" --field tags --op has --value eng',
      options: GROUP_OPTIONS,
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
    getCommand({
      summary: 'show a group',
      usage: '<name>',
      get: (client, name) => client.groups.get(name),
    }),
    {
      name: 'update',
      summary: 'change a group',
      usage: '<name>',
      options: GROUP_OPTIONS,
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
    removeCommand({
      name: 'delete',
      summary: 'delete a group and its shares',
      usage: '<name>',
      remove: (client, name) => client.groups.delete(name),
      done: (result) => `deleted group ${result.name}\n`,
    }),
  ],
}
