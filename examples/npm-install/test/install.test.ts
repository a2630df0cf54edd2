import { execFile } from 'node:child_process'
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../../..', import.meta.url))

/** The packages published to npm: every package of `packages/` that is not private. */
async function publishedPackages(): Promise<{ dir: string; name: string; version: string }[]> {
  const found = []
  for (const entry of await readdir(join(root, 'packages'))) {
    const dir = join(root, 'packages', entry)
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      name: string
      version: string
      private?: boolean
    }
    if (manifest.private !== true)
      found.push({ dir, name: manifest.name, version: manifest.version })
  }
  return found
}

let work: string
let project: string
let tarballs: string[]
let packages: Awaited<ReturnType<typeof publishedPackages>>

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'svcdb-pack-'))
  packages = await publishedPackages()
  // `pnpm pack` (after the build the test command runs first) turns workspace ranges into
  // the versions being packed, as `pnpm publish` does.
  for (const pkg of packages)
    await run('pnpm', ['pack', '--pack-destination', work], { cwd: pkg.dir })
  tarballs = (await readdir(work)).filter((f) => f.endsWith('.tgz')).map((f) => join(work, f))
  project = join(work, 'project')
  await run('mkdir', [project])
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
  )
  // Plain npm, no workspace: third-party dependencies come from the registry.
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs], {
    cwd: project,
    maxBuffer: 16 * 1024 * 1024,
  })
})

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true })
})

describe('the published packages, packed and installed with npm', () => {
  it('packs every published package with real versions instead of workspace ranges', async () => {
    expect(packages.map((p) => p.name).sort()).toEqual([
      '@svcdb/auth',
      '@svcdb/cli',
      '@svcdb/client',
      '@svcdb/contract',
      '@svcdb/engine',
      '@svcdb/events',
      '@svcdb/postgres',
      '@svcdb/s3',
      '@svcdb/scheduler',
      '@svcdb/server',
    ])
    expect(tarballs).toHaveLength(packages.length)
    for (const pkg of packages) {
      const installed = JSON.parse(
        await readFile(join(project, 'node_modules', pkg.name, 'package.json'), 'utf8'),
      ) as { version: string; dependencies?: Record<string, string> }
      expect(installed.version).toBe(pkg.version)
      for (const range of Object.values(installed.dependencies ?? {}))
        expect(range).not.toMatch(/^workspace:/)
    }
  })

  it('imports each package by name and does real work with it', async () => {
    await copyFile(
      fileURLToPath(new URL('./smoke.mjs', import.meta.url)),
      join(project, 'smoke.mjs'),
    )
    const { stdout } = await run(process.execPath, ['smoke.mjs'], { cwd: project })
    expect(JSON.parse(stdout)).toEqual({
      text: 'hello from npm',
      health: 'ok',
      routes: expect.any(Number),
      drivers: { schema: 'svcdb', bucket: 'chunks' },
    })
  })

  it('runs both commands through npx', async () => {
    const cli = packages.find((p) => p.name === '@svcdb/cli')
    const server = packages.find((p) => p.name === '@svcdb/server')
    const svcdb = await run('npx', ['--no-install', 'svcdb', '--version'], { cwd: project })
    expect(svcdb.stdout.trim()).toBe(cli?.version)
    const svcdbServer = await run('npx', ['--no-install', 'svcdb-server', '--version'], {
      cwd: project,
    })
    expect(svcdbServer.stdout.trim()).toBe(server?.version)
  })
})
