/**
 * Why `name` cannot name an entry of a directory, or `undefined` when it can: it must not be
 * empty, `.` or `..`, nor hold `/` (that would name another directory) or NUL.
 */
export function entryNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'Give a name.'
  if (name === '.' || name === '..') return `“${name}” is not a name.`
  if (name.includes('/')) return 'A name cannot hold “/”.'
  if (name.includes('\0')) return 'A name cannot hold the NUL character.'
  return undefined
}
