import type { Client } from '@svcdb/client'

/** Paths a refusal names before `… and N more`. */
const SHOWN_PATHS = 10
/** Entries counted before the count reads `N+`: a refusal must not walk a huge diff. */
const MAX_COUNTED = 10_000

/**
 * What HEAD holds that a version from `base` lacks: "3 entries changed on HEAD since
 * <base>: /a (added), …", for the message of a refused promote. The server lists only the
 * entries the caller may read.
 */
export async function discardedChanges(client: Client, base: string): Promise<string> {
  const paths: string[] = []
  let count = 0
  let capped = false
  for await (const item of client.versions.changesAll(base, { limit: 1000 })) {
    if (count === MAX_COUNTED) {
      capped = true
      break
    }
    count++
    if (paths.length < SHOWN_PATHS) paths.push(`${item.path} (${item.change})`)
  }
  const total = capped ? `${MAX_COUNTED}+` : String(count)
  if (count === 0) return `the commits on HEAD since ${base} (they change no entry you may read)`
  const rest = capped
    ? ' and more'
    : count > paths.length
      ? ` and ${count - paths.length} more`
      : ''
  const noun = count === 1 ? 'entry' : 'entries'
  return `${total} ${noun} changed on HEAD since ${base}: ${paths.join(', ')}${rest}`
}
