// API reports: the type surface of every entry point of every published package, committed at
// packages/<pkg>/api/<entry>.api.md so that each change to it shows in review.
//
//   node scripts/api-report.mjs            checks: exits 1 when a report differs from the build
//   node scripts/api-report.mjs --update   writes the reports (`pnpm api:update` builds first)
//
// It reads the built .d.ts files (dist/), so build first. Shared settings: api-extractor.json.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor'

const root = fileURLToPath(new URL('..', import.meta.url))
const baseConfigPath = join(root, 'api-extractor.json')

// How api-extractor's TypeScript reads the .d.ts files: as a Node ESM consumer would.
const compilerOptions = {
  target: 'ES2023',
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  types: ['node'],
  strict: true,
  // The .d.ts files come from type-checked sources; checking node_modules here is slow noise.
  skipLibCheck: true,
}

/**
 * @typedef {{ name: string, dts: string }} Entry  `name` is `index` for ".", else the subpath.
 * @typedef {{ name: string, folder: string, entries: Entry[] }} Package
 * @typedef {{ report: string, changed: boolean, diff: string, problems: string[] }} EntryResult
 */

/**
 * Every published package under packages/, with the entry points of its "exports" map.
 * @returns {Package[]}
 */
export function listPackages() {
  const packagesDir = join(root, 'packages')
  return readdirSync(packagesDir).flatMap((name) => {
    const folder = join(packagesDir, name)
    const manifestPath = join(folder, 'package.json')
    if (!existsSync(manifestPath)) return []
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
    if (manifest.private || !manifest.exports) return []
    const entries = Object.entries(manifest.exports)
      .filter(([, target]) => typeof target === 'object' && target.types)
      .map(([subpath, target]) => ({
        name: subpath === '.' ? 'index' : subpath.slice(2),
        dts: resolve(folder, target.types),
      }))
    return [{ name, folder, entries }]
  })
}

/**
 * Runs api-extractor on every entry of one package. With `update`, writes the reports that
 * changed; without, leaves them alone and says which differ.
 * @param {Package} pkg
 * @param {{ update: boolean }} options
 * @returns {EntryResult[]}
 */
export function reportPackage(pkg, { update }) {
  const tempFolder = mkdtempSync(join(tmpdir(), 'svcdb-api-report-'))
  if (update) mkdirSync(join(pkg.folder, 'api'), { recursive: true })
  try {
    return pkg.entries.map((entry) => {
      const config = prepareConfig(pkg, entry, tempFolder)
      return runExtractor(config, sharedCompilerState(config), update)
    })
  } finally {
    rmSync(tempFolder, { recursive: true, force: true })
  }
}

/** @type {CompilerState | undefined} */
let compilerState

/**
 * One TypeScript program over every entry of every package: building it is most of the work,
 * and the entries share their dependencies' types.
 * @param {ExtractorConfig} config
 */
function sharedCompilerState(config) {
  compilerState ??= CompilerState.create(config, { additionalEntryPoints: allEntryFiles() })
  return compilerState
}

function allEntryFiles() {
  const files = listPackages().flatMap((pkg) => pkg.entries.map((entry) => entry.dts))
  for (const file of files) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`pnpm build\` first`)
  }
  return files
}

/**
 * @param {Package} pkg
 * @param {Entry} entry
 * @param {string} tempFolder
 */
function prepareConfig(pkg, entry, tempFolder) {
  const configObject = ExtractorConfig.loadFile(baseConfigPath)
  configObject.projectFolder = pkg.folder
  configObject.mainEntryPointFilePath = entry.dts
  configObject.compiler = { overrideTsconfig: { compilerOptions, files: allEntryFiles() } }
  configObject.apiReport = {
    ...configObject.apiReport,
    enabled: true,
    reportFileName: entry.name,
    reportTempFolder: tempFolder,
  }
  return ExtractorConfig.prepare({
    configObject,
    configObjectFullPath: baseConfigPath,
    packageJsonFullPath: join(pkg.folder, 'package.json'),
  })
}

/**
 * @param {ExtractorConfig} config
 * @param {CompilerState} compilerState
 * @param {boolean} update
 * @returns {EntryResult}
 */
function runExtractor(config, compilerState, update) {
  /** @type {string[]} */
  const problems = []
  let diff = ''
  const result = Extractor.invoke(config, {
    localBuild: update,
    compilerState,
    printApiReportDiff: true,
    messageCallback(message) {
      message.handled = true
      if (message.messageId === 'console-api-report-diff') diff = message.text
      // A changed report is `result.apiReportChanged`, not a problem.
      if (message.messageId.startsWith('console-api-report')) return
      if (message.logLevel === 'error' || message.logLevel === 'warning') {
        problems.push(message.formatMessageWithLocation(root))
      }
    },
  })
  const report = relative(root, join(config.reportFolder, `${config.reportConfigs[0].fileName}`))
  return { report, changed: result.apiReportChanged, diff, problems }
}

function main() {
  const update = process.argv.includes('--update')
  let failed = false
  for (const pkg of listPackages()) {
    for (const { report, changed, diff, problems } of reportPackage(pkg, { update })) {
      for (const problem of problems) console.error(`${report}: ${problem}`)
      failed ||= problems.length > 0
      if (!changed) continue
      if (update) {
        console.log(`updated ${report}`)
      } else {
        console.error(`${report} differs from the build; run \`pnpm api:update\`\n${diff}`)
        failed = true
      }
    }
  }
  if (failed) process.exitCode = 1
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main()
