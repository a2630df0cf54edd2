import type { Command } from '../command'
import { formatKeyValue } from '../output/key-value'

/** `svcdb whoami`: who the credential in use speaks for (`GET /auth/whoami`). */
export const whoamiCommand: Command = {
  name: 'whoami',
  summary: 'show who the API key in use speaks for, and its rules',
  usage: '',
  details:
    'Prints the user (null for a share key), whether it is root, the key id and the key\n' +
    "rules (none: the user's own permissions), and where the URL and key came from.",
  args: [0, 0],
  async run(_p, _v, ctx) {
    const connection = await ctx.connection()
    const me = await (await ctx.client()).auth.whoami()
    const out = { ...me, url: connection.url, source: connection.source }
    ctx.print(out, () => formatKeyValue(out))
  },
}
