import { build } from 'esbuild'
import type { Metafile } from 'esbuild'

/** The page's script, bundled for browsers, and what esbuild says went into it. */
export interface PageBundle {
  code: string
  metafile: Metafile
}

/**
 * Bundles `entry` the way an app would: for browsers, as ESM, with `@svcdb/*` resolved
 * through the packages' `exports` to their built `dist` (`pnpm test` builds first). The
 * empty `tsconfigRaw` keeps esbuild from following the repo's tsconfig `paths` to `src`,
 * which would test the sources instead of what ships.
 */
export async function bundlePage(entry: string): Promise<PageBundle> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    tsconfigRaw: {},
  })
  const code = result.outputFiles[0]?.text
  if (code === undefined) throw new Error(`esbuild wrote nothing for ${entry}`)
  return { code, metafile: result.metafile }
}
