/**
 * A record as aligned `key value` lines, nested objects indented under their key, arrays
 * comma-joined: the human form of one item (a user, a task, the stats).
 */
export function formatKeyValue(record: object, indent = ''): string {
  return Object.entries(record)
    .map(([key, value]) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? `${indent}${key}\n${formatKeyValue(value as object, `${indent}  `)}`
        : `${indent}${key.padEnd(Math.max(1, 24 - indent.length))}${Array.isArray(value) ? value.join(',') : String(value)}\n`,
    )
    .join('')
}
