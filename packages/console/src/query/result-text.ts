/** How many answers of a query are shown, and whether more remain, in words. */
export function resultSummary(count: number, more: boolean): string {
  const files = `${count} matching ${count === 1 ? 'file' : 'files'}`
  return more ? `Showing the first ${files}; more remain` : `Showing ${files}`
}

/** The directory holding the file at `path` (`/a/b.json` is in `/a`, `/b.json` in `/`). */
export function parentDirectory(path: string): string {
  return path.slice(0, path.lastIndexOf('/')) || '/'
}
