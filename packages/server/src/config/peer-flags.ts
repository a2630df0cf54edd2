import type { Environment } from './flag-environment'

/** One deployment this one pulls from (`--peer NAME=URL[#/scope]`). */
export interface PeerConfig {
  /** Letters, digits, `_` and `-`; names the fork `peer-NAME-<hash>` and the key's variable. */
  name: string
  /** The peer's base URL, without a trailing slash. */
  url: string
  /** Only this directory is replicated (`#/projects` or `#/projects/**`); the whole database when absent. */
  scope?: string
  /** An API key of the peer, from `SVCDB_PEER_<NAME>_KEY`; never stored, never logged. */
  key?: string
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/

/** The variable holding peer `name`'s key: `SVCDB_PEER_<NAME>_KEY`, dashes as underscores. */
export function peerKeyVariable(name: string): string {
  return `SVCDB_PEER_${name.toUpperCase().replaceAll('-', '_')}_KEY`
}

/**
 * The peers of `--peer` (repeatable) or, without any, of `SVCDB_PEERS` (`name=url,...`),
 * each with its key from the environment. Returns a one-line error naming the flag at fault;
 * a URL is never echoed, since a mistyped one may carry a password.
 */
export function peersFromFlags(
  given: readonly string[] | undefined,
  env: Environment,
): PeerConfig[] | { error: string } {
  const fromFlags = given !== undefined && given.length > 0
  const source = fromFlags ? '--peer' : 'SVCDB_PEERS'
  const specs = fromFlags
    ? given
    : (env.SVCDB_PEERS ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
  const peers: PeerConfig[] = []
  for (const spec of specs) {
    const peer = parsePeer(spec, env)
    if ('error' in peer) return { error: `invalid value for ${source}: ${peer.error}` }
    // `a-b`, `a_b` and `A-B` would all read one key variable: refuse them as one name.
    const twin = peers.find((p) => peerKeyVariable(p.name) === peerKeyVariable(peer.name))
    if (twin !== undefined)
      return {
        error:
          twin.name === peer.name
            ? `invalid value for ${source}: peer ${peer.name} is named twice`
            : `invalid value for ${source}: peers ${twin.name} and ${peer.name} are named twice (both would read ${peerKeyVariable(peer.name)})`,
      }
    peers.push(peer)
  }
  return peers
}

function parsePeer(spec: string, env: Environment): PeerConfig | { error: string } {
  const eq = spec.indexOf('=')
  if (eq < 0) return { error: 'expected NAME=URL, e.g. office=https://office.example:6830' }
  const name = spec.slice(0, eq)
  if (!NAME.test(name))
    return { error: `peer name ${JSON.stringify(name)}: use letters, digits, '_' or '-'` }
  const rest = spec.slice(eq + 1)
  const hash = rest.indexOf('#')
  const rawUrl = hash < 0 ? rest : rest.slice(0, hash)
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    return { error: `peer ${name}: the URL is not valid (expected http(s)://HOST[:PORT])` }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { error: `peer ${name}: the URL must be http:// or https://` }
  if (url.username !== '' || url.password !== '')
    return { error: `peer ${name}: put the key in ${peerKeyVariable(name)}, not in the URL` }
  if (url.search !== '') return { error: `peer ${name}: the URL takes no query` }
  const peer: PeerConfig = { name, url: url.origin + url.pathname.replace(/\/+$/, '') }
  if (hash >= 0) {
    const scope = parseScope(rest.slice(hash + 1))
    if (scope === undefined)
      return {
        error: `peer ${name}: the scope must be a directory such as #/projects or #/projects/**`,
      }
    if (scope !== '/') peer.scope = scope
  }
  const key = env[peerKeyVariable(name)]
  if (key !== undefined && key !== '') peer.key = key
  return peer
}

function parseScope(raw: string): string | undefined {
  let decoded: string
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    return undefined
  }
  const dir = decoded.replace(/\/\*\*$/, '').replace(/\/+$/, '')
  if (dir === '') return '/'
  if (
    !dir.startsWith('/') ||
    /[*?[\]{}]/.test(dir) ||
    dir.split('/').some((p) => p === '.' || p === '..')
  )
    return undefined
  return dir
}
