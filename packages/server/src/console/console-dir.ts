import { access } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

/**
 * Where the console's build is: `dist/console/` beside the built server (the server's build
 * copies `@svcdb/console`'s `dist` there), also found from the sources (tests, tsx).
 */
export async function defaultConsoleDir(): Promise<string> {
  const candidates = [
    new URL('./console/', import.meta.url),
    new URL('../../dist/console/', import.meta.url),
  ].map((url) => fileURLToPath(url))
  for (const dir of candidates) {
    if (
      await access(`${dir}index.html`).then(
        () => true,
        () => false,
      )
    )
      return dir
  }
  return candidates[0] as string
}
