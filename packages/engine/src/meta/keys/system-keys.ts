import { EngineError } from '../../errors'

// Keys of the `sys` space: `<namespace>/<key>`. A namespace never holds `/`, so the first `/`
// splits a stored key, and every key of a namespace (or of one prefix within it) sorts in one
// contiguous run.
const NAMESPACE = /^[a-z][a-z0-9-]{0,31}$/

/** Refuses a system namespace that is not 1–32 of `a-z 0-9 -` starting with a letter (`INVALID_INPUT`). */
export function assertSystemNamespace(namespace: string): void {
  if (!NAMESPACE.test(namespace)) {
    throw new EngineError(
      'INVALID_INPUT',
      `invalid system namespace ${JSON.stringify(namespace)}: use a-z, 0-9 and '-'`,
    )
  }
}

/** The `sys` key of `key` in `namespace` (any string, empty included). */
export function systemKey(namespace: string, key: string): string {
  return `${namespace}/${key}`
}

/** The namespace and key of a stored `sys` key, or `undefined` when it has no namespace. */
export function parseSystemKey(stored: string): { namespace: string; key: string } | undefined {
  const slash = stored.indexOf('/')
  if (slash < 0) return undefined
  const namespace = stored.slice(0, slash)
  return NAMESPACE.test(namespace) ? { namespace, key: stored.slice(slash + 1) } : undefined
}
