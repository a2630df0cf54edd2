// Runs every `packages/*/bench/*.bench.ts` (and examples') and prints a table and JSON.
// A bench module exports `benchmarks`: Benchmark[] (types in scripts/bench-protocol.ts).
// Usage: pnpm bench [filter]   (filter matches package or benchmark names)
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { register } from 'tsx/esm/api'

register()
const filter = process.argv[2] ?? ''
const files = ['packages', 'examples'].flatMap((top) =>
  readdirSync(top).flatMap((pkg) => {
    const dir = join(top, pkg, 'bench')
    return existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.bench.ts'))
          .map((f) => join(dir, f))
      : []
  }),
)
files.sort()

const rows = []
const failures = []
for (const file of files) {
  const pkg = file.split('/')[1]
  const fileMatches = !filter || pkg.includes(filter) || file.includes(filter)
  let mod
  try {
    mod = await import(pathToFileURL(file).href)
  } catch (err) {
    // One broken bench file must not hide every other figure.
    if (fileMatches) failures.push(`${file}: cannot load: ${err.message}`)
    continue
  }
  for (const bench of mod.benchmarks ?? []) {
    if (!fileMatches && !bench.name.includes(filter)) continue
    process.stderr.write(`running ${pkg}: ${bench.name}…\n`)
    try {
      for (const result of await bench.run()) {
        rows.push({ package: pkg, bench: bench.name, ...result })
        // Printed as it lands, so an interrupted run still shows what it measured.
        process.stderr.write(`  ${result.name}: ${result.value} ${result.unit}\n`)
      }
    } catch (err) {
      failures.push(`${pkg}: ${bench.name}: ${err.stack ?? err}`)
    }
  }
}

const fmt = (n) => (Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3))
const verdict = (r) =>
  r.target === undefined
    ? ''
    : (r.better === 'lower' ? r.value <= r.target : r.value >= r.target)
      ? 'met'
      : 'MISSED'
const table = [
  ['package', 'measure', 'value', 'unit', 'target', ''],
  ...rows.map((r) => [
    r.package,
    r.name,
    fmt(r.value),
    r.unit,
    r.target === undefined ? '' : `${r.better === 'lower' ? '≤' : '≥'} ${fmt(r.target)}`,
    verdict(r),
  ]),
]
const widths = table[0].map((_, i) => Math.max(...table.map((row) => String(row[i]).length)))
for (const [i, row] of table.entries()) {
  console.log(
    row
      .map((cell, j) => String(cell).padEnd(widths[j]))
      .join('  ')
      .trimEnd(),
  )
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '))
}
// Notes (a skipped peer, what a corpus held) print under the table, where they are read.
const notes = rows.filter((r) => r.note !== undefined)
if (notes.length > 0) {
  console.log('\nnotes:')
  for (const r of notes) console.log(`  ${r.package}: ${r.name}: ${r.note}`)
}
const machine = {
  cpus: cpus().length,
  cpu: cpus()[0]?.model,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
}
const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
  } catch {
    return undefined
  }
})()
const report = { date: new Date().toISOString(), commit, machine, results: rows, failures }
writeFileSync('bench-results.json', `${JSON.stringify(report, null, 2)}\n`)
console.log(`\n${JSON.stringify(report)}`)
process.stderr.write(`written to ${relative(process.cwd(), 'bench-results.json')}\n`)
if (failures.length > 0) {
  process.stderr.write(`\n${failures.length} benchmark(s) failed:\n${failures.join('\n')}\n`)
  process.exitCode = 1
}
