import { humanValue } from './human-value'

/**
 * A record as aligned `key value` lines (always at least one space between them), nested
 * objects indented under their key, each value made readable by {@link humanValue}: the human
 * form of one item (a user, a key, a task, the stats).
 */
export function formatKeyValue(
  record: object,
  indent = '',
  section: readonly string[] = [],
): string {
  const entries = Object.entries(record)
  const width = Math.max(24 - indent.length, ...entries.map(([key]) => key.length + 2))
  return entries
    .map(([key, value]) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? `${indent}${key}\n${formatKeyValue(value as object, `${indent}  `, [...section, key])}`
        : `${indent}${key.padEnd(width)}${humanValue(key, value, section)}\n`,
    )
    .join('')
}
