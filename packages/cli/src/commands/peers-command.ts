import type { PeerStatus } from '@svcdb/contract'
import { usageError } from '../cli-error'
import type { Command } from '../command'
import { humanValue } from '../output/human-value'
import { formatTable } from '../output/table'
import type { Column } from '../output/table'
import { FORGET, runForget } from './peers-forget'

/** What `svcdb peers` prints when the server has no peers. */
export const NO_PEERS_HINT = 'no peers configured: start the server with --peer NAME=URL\n'

/** The longest LAST ERROR cell: the whole error is in `--json`. */
const ERROR_WIDTH = 60

/** `now - ms` as `3s ago`, `5m ago`, `2h ago`, `4d ago`; `never` for null. */
export function formatAge(ms: number | null, now: number): string {
  if (ms === null) return 'never'
  // The server's clock may run ahead of this machine's: a future time is shown as now.
  const seconds = Math.max(0, Math.floor((now - ms) / 1000))
  if (seconds < 60) return `${seconds}s ago`
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`
  if (seconds < 48 * 3600) return `${Math.floor(seconds / 3600)}h ago`
  return `${Math.floor(seconds / 86_400)}d ago`
}

/** The peer's clock offset as `+3.25 ms` / `-12 ms` (signed: which clock is ahead); `-` for none. */
export function formatOffset(ms: number | null): string {
  const text = humanValue('clock_offset_ms', ms)
  return ms !== null && ms > 0 ? `+${text}` : text
}

/** `CODE: message` on one line, cut to {@link ERROR_WIDTH} characters; empty for none. */
export function formatPeerError(error: PeerStatus['last_error']): string {
  if (error === null) return ''
  const text = `${error.code}: ${error.message}`.replace(/\s+/g, ' ').trim()
  return text.length <= ERROR_WIDTH ? text : `${text.slice(0, ERROR_WIDTH - 1)}…`
}

function peerColumns(now: number): Column<PeerStatus>[] {
  return [
    { heading: 'name', cell: (p) => p.name },
    { heading: 'state', cell: (p) => p.state },
    { heading: 'live', cell: (p) => (p.live ? 'yes' : 'no') },
    { heading: 'lag', cell: (p) => String(p.lag_entries), right: true },
    { heading: 'last sync', cell: (p) => formatAge(p.last_success_at, now) },
    { heading: 'offset', cell: (p) => formatOffset(p.clock_offset_ms), right: true },
    { heading: 'rtt', cell: (p) => humanValue('round_trip_ms', p.round_trip_ms), right: true },
    { heading: 'last error', cell: (p) => formatPeerError(p.last_error) },
  ]
}

/**
 * The human form of `svcdb peers`: one row per peer (NAME, STATE, LIVE, LAG, LAST SYNC as a
 * relative age from `now`, OFFSET and RTT in ms, LAST ERROR shortened), or the one-line
 * {@link NO_PEERS_HINT} for none.
 */
export function formatPeers(peers: readonly PeerStatus[], now: number): string {
  return peers.length === 0 ? NO_PEERS_HINT : formatTable(peers, peerColumns(now))
}

/**
 * `svcdb peers` (root): the replication peers' status; `--json` prints the raw items.
 * `svcdb peers forget NAME` drops what the server kept of a peer no longer configured. A
 * command with an optional verb rather than a group, so that `svcdb peers` alone still
 * prints the table (a group without its subcommand prints its help).
 */
export const peersCommand: Command = {
  name: 'peers',
  summary: 'show the replication peers: state, lag, last sync, clock offset (root)',
  usage: `[${FORGET} <name>]`,
  details:
    'One row per --peer of the server. STATE is ok after a successful sync, failing after a ' +
    "failed attempt, pending before the first; LIVE says whether the peer's event stream is " +
    "followed; LAG counts the peer's entries not applied here yet; OFFSET is the peer's clock " +
    "minus this server's and RTT the round trip, from its heartbeats. --json prints every " +
    'field, the full last error and the forks created by conflicting changes.\n\n' +
    `${FORGET} <name> drops what the server kept of a peer it is no longer started with ` +
    "(--peer): its pins peer/NAME, which keep the peer's last version from garbage " +
    'collection, its read-only cursor, its staging fork and its status, and prints what went. ' +
    'A peer still configured is refused (exit 5: restart the server without it first); a ' +
    'name nothing is kept of is not found (exit 3).',
  wireOptions: { name: '<name>' },
  args: [0, 2],
  async run(positionals, _v, ctx) {
    const [verb] = positionals
    if (verb === FORGET) return runForget(positionals, ctx)
    if (verb !== undefined)
      throw usageError(`unknown subcommand '${verb}'; run \`svcdb peers --help\``)
    const peers = await (await ctx.client()).system.peers()
    ctx.print(peers, () => formatPeers(peers, Date.now()))
  },
}
