import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// STYLE.md "Layers": the console runs in browsers over @svcdb/client and @svcdb/contract only.
// eslint checks src/**/*.ts; this checks the .svelte files too, whose scripts it does not see.
const srcDir = fileURLToPath(new URL('../src/', import.meta.url))

/** The packages the console may import, besides its own files. */
const ALLOWED_PACKAGES = [
  /^svelte(\/[\w/-]+)?$/,
  /^uplot$/,
  /^uplot\/[\w/.-]+\.css$/,
  /^@svcdb\/(client|contract)$/,
]

/** The scripts of a file: all of a .ts file, the `<script>` blocks of a .svelte one. */
function scripts(fileName: string, text: string): string[] {
  if (!fileName.endsWith('.svelte')) return [text]
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '')
}

/** Every module specifier of `text`: imports, re-exports and `import()`, comments left out. */
function specifiers(fileName: string, text: string): string[] {
  return scripts(fileName, text).flatMap((script) =>
    ts.preProcessFile(script, true, true).importedFiles.map((ref) => ref.fileName),
  )
}

/** Why `specifier`, imported by `file` (absolute), breaks the layer; `undefined` when it does not. */
function violation(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('./') || specifier.startsWith('../')) {
    const target = relative(srcDir, resolve(file, '..', specifier))
    return target.startsWith('..') ? 'leaves the console' : undefined
  }
  return ALLOWED_PACKAGES.some((allowed) => allowed.test(specifier))
    ? undefined
    : 'not @svcdb/client, @svcdb/contract, svelte or uplot'
}

/** The console's shipped sources: .ts and .svelte under src/, tests left out (as eslint does). */
function sourceFiles(): string[] {
  return readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|svelte)$/.test(name) && !name.endsWith('.test.ts'))
    .map((name) => join(srcDir, name))
}

/** `file: specifier (why)` for every import of `files` that breaks the layer. */
function violations(files: readonly string[], read = (file: string) => readFileSync(file, 'utf8')) {
  return files.flatMap((file) =>
    specifiers(file, read(file)).flatMap((specifier) => {
      const why = violation(file, specifier)
      return why === undefined ? [] : [`${relative(srcDir, file)}: ${specifier} (${why})`]
    }),
  )
}

describe('the console imports', () => {
  it('are relative, or svelte, uplot, @svcdb/client and @svcdb/contract, in .ts and .svelte files', () => {
    const files = sourceFiles()
    // Guards against a check that looks at nothing.
    expect(files.filter((file) => file.endsWith('.svelte')).length).toBeGreaterThan(10)
    const found = files.flatMap((file) => specifiers(file, readFileSync(file, 'utf8')))
    expect(found).toContain('@svcdb/client')
    expect(found).toContain('svelte')
    expect(violations(files)).toEqual([])
  })

  it('are caught in a .svelte script, a module script, a re-export and an import()', () => {
    const sources = new Map([
      [
        join(srcDir, 'files', 'a.svelte'),
        `<script module>import { x } from 'node:fs'</script>
<script lang="ts">
  // import 'in-a-comment'
  import { y } from '@svcdb/engine'
  import Z from './z.svelte'
  import { w } from '../../../server/src/index'
</script>
<p>import nothing from 'markup-text'</p>`,
      ],
      [
        join(srcDir, 'b.ts'),
        `export { q } from 'valibot'\nconst m = await import('svelte/internal/client')\nimport 'uplot/dist/uPlot.min.css'`,
      ],
    ])
    expect(violations([...sources.keys()], (file) => sources.get(file) ?? '')).toEqual([
      'files/a.svelte: node:fs (not @svcdb/client, @svcdb/contract, svelte or uplot)',
      'files/a.svelte: @svcdb/engine (not @svcdb/client, @svcdb/contract, svelte or uplot)',
      'files/a.svelte: ../../../server/src/index (leaves the console)',
      'b.ts: valibot (not @svcdb/client, @svcdb/contract, svelte or uplot)',
    ])
  })
})
