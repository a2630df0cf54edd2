import type { PeerForgetResponse } from '@svcdb/contract'
import { usageError } from '../cli-error'
import type { CommandContext } from '../command'

/** The subcommand of `svcdb peers` that drops what is kept of a peer: `svcdb peers forget NAME`. */
export const FORGET = 'forget'

/** `forgot peer NAME: dropped peer/NAME, readable/NAME`: what the server dropped, on one line. */
export function formatForgotten(answer: PeerForgetResponse): string {
  const dropped = answer.removed.length === 0 ? 'nothing' : answer.removed.join(', ')
  return `forgot peer ${answer.name}: dropped ${dropped}\n`
}

/**
 * `svcdb peers forget NAME` (root): asks the server to drop what it kept of a peer no longer
 * configured. The server refuses a configured peer (409, exit 5) and one it keeps nothing of
 * (404, exit 3); both are printed as one line by the CLI's error path.
 */
export async function runForget(positionals: readonly string[], ctx: CommandContext) {
  const name = positionals[1]
  if (name === undefined) throw usageError(`expected a peer name: peers ${FORGET} <name>`)
  const answer = await (await ctx.client()).system.forgetPeer(name)
  ctx.print(answer, () => formatForgotten(answer))
}
