import type { Client } from '@svcdb/client'
import { describe, expect, it } from 'vitest'
import type { CommandContext } from '../command'
import { getCommand, listCommand, removeCommand } from './resource-commands'

/** A context whose client is `client` and whose `print` keeps both forms of the answer. */
function contextOf(client: object) {
  const printed: { value: unknown; human: string }[] = []
  const ctx = {
    client: async () => client as Client,
    print: (value: unknown, human: () => string) => void printed.push({ value, human: human() }),
  } as Partial<CommandContext> as CommandContext
  return { ctx, printed }
}

describe('resource commands', () => {
  it('list: no arguments; prints the items as a table, or the items themselves as JSON', async () => {
    const items = [{ id: 'a', size: 1 }]
    const command = listCommand({
      summary: 'list things',
      list: async () => items,
      columns: [
        { heading: 'id', cell: (t) => t.id },
        { heading: 'size', cell: (t) => String(t.size), right: true },
      ],
    })
    expect(command).toMatchObject({ name: 'list', summary: 'list things', usage: '', args: [0, 0] })
    const { ctx, printed } = contextOf({})
    await command.run([], {}, ctx)
    expect(printed).toEqual([{ value: items, human: 'ID  SIZE\na      1\n' }])
  })

  it('get: one argument, handed to the row; prints the item as key-value lines', async () => {
    const asked: string[] = []
    const command = getCommand({
      summary: 'show a thing',
      usage: '<id>',
      get: async (_client, id) => (asked.push(id), { id, name: 'first' }),
    })
    expect(command).toMatchObject({ name: 'get', usage: '<id>', args: [1, 1] })
    const { ctx, printed } = contextOf({})
    await command.run(['a'], {}, ctx)
    expect(asked).toEqual(['a'])
    expect(printed).toEqual([
      {
        value: { id: 'a', name: 'first' },
        human: `id${' '.repeat(22)}a\nname${' '.repeat(20)}first\n`,
      },
    ])
  })

  it("remove: named by its row, one argument; calls the connection's client, prints the row's line", async () => {
    const client = { things: { delete: async (id: string) => ({ id, deleted: true }) } }
    const command = removeCommand({
      name: 'abandon',
      summary: 'remove a thing',
      usage: '<name>',
      remove: (c: Client, id) => (c as unknown as typeof client).things.delete(id),
      done: (result, id) => `gone ${result.id} (asked ${id})\n`,
    })
    expect(command).toMatchObject({ name: 'abandon', usage: '<name>', args: [1, 1] })
    const { ctx, printed } = contextOf(client)
    await command.run(['x'], {}, ctx)
    expect(printed).toEqual([{ value: { id: 'x', deleted: true }, human: 'gone x (asked x)\n' }])
  })
})
