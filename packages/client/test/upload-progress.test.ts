import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../src'
import type { Client, UploadManyProgress, UploadProgress } from '../src'
import { startLiveServer } from './live-server'
import type { LiveServer } from './live-server'

let server: LiveServer
let client: Client

beforeAll(async () => {
  server = await startLiveServer()
  client = createClient({ baseUrl: server.url, apiKey: server.rootApiKey })
}, 30_000)
afterAll(async () => {
  await server?.dispose()
})

const BYTES = ['bytesRead', 'bytesSent', 'bytesDone'] as const
const FILES = ['files', 'filesCommitted', 'commits'] as const

/** Every report moves some count of `keys` forward and none back. */
function expectMonotonic<T extends object>(reports: readonly T[], keys: readonly (keyof T)[]) {
  for (let i = 1; i < reports.length; i++) {
    const [a, b] = [reports[i - 1] as T, reports[i] as T]
    for (const key of keys)
      expect(b[key] as number, `${String(key)} at report ${i}`).toBeGreaterThanOrEqual(
        a[key] as number,
      )
    expect(
      keys.some((key) => (b[key] as number) > (a[key] as number)),
      `report ${i} moves a count`,
    ).toBe(true)
  }
}

const distinct = (values: number[]) => new Set(values).size

describe('upload progress', () => {
  it('counts bytes sent chunk by chunk, ending at the total of a fresh file', async () => {
    const data = randomBytes(3 * 1024 * 1024)
    const reports: UploadProgress[] = []
    const result = await client.files.upload('/p/fresh.bin', data, {
      onProgress: (p) => reports.push(p),
    })
    expectMonotonic(reports, BYTES)
    const last = reports.at(-1) as UploadProgress
    expect(last).toMatchObject({
      bytesRead: data.length,
      bytesSent: data.length,
      bytesDone: data.length,
      totalBytes: data.length,
      chunksSent: last.chunks,
    })
    expect(result.size).toBe(data.length)
    // One step per chunk stored, not one jump per batch: as many values as chunks, plus zero.
    expect(distinct(reports.map((r) => r.bytesSent))).toBe(last.chunks + 1)
    expect(distinct(reports.map((r) => r.bytesDone))).toBe(last.chunks + 1)
    expect(reports.every((r) => r.totalBytes === data.length)).toBe(true)
  })

  it('moves bytesDone to the total on a re-upload that sends nothing', async () => {
    const data = randomBytes(2 * 1024 * 1024)
    await client.files.upload('/p/once.bin', data)
    const reports: UploadProgress[] = []
    await client.files.upload('/p/twice.bin', data, {
      batchChunks: 4,
      onProgress: (p) => reports.push(p),
    })
    expectMonotonic(reports, BYTES)
    expect(reports.every((r) => r.bytesSent === 0)).toBe(true)
    const last = reports.at(-1) as UploadProgress
    expect(last.bytesDone).toBe(data.length)
    // One step per answered batch of four chunks.
    expect(distinct(reports.map((r) => r.bytesDone)) - 1).toBe(Math.ceil(last.chunks / 4))
  })

  it('reports no total for a stream, and still ends bytesDone at the bytes read', async () => {
    const data = randomBytes(1024 * 1024 + 5)
    const reports: UploadProgress[] = []
    await client.files.upload(
      '/p/stream.bin',
      Readable.from([data.subarray(0, 1000), data.subarray(1000)]),
      {
        onProgress: (p) => reports.push(p),
      },
    )
    expectMonotonic(reports, BYTES)
    expect(reports.every((r) => r.totalBytes === undefined)).toBe(true)
    expect(reports.at(-1)).toMatchObject({ bytesRead: data.length, bytesDone: data.length })
  })

  it('shows uploadMany reading within a file and ends bytesDone at bytesRead', async () => {
    const files = [randomBytes(3 * 1024 * 1024), randomBytes(1024)]
    const reports: UploadManyProgress[] = []
    const result = await client.files.uploadMany(
      files.map((source, i) => ({ path: `/p/many/${i}`, source })),
      { onProgress: (p) => reports.push(p) },
    )
    expectMonotonic(reports, [...BYTES, ...FILES])
    // Before the first file is done, its reading already shows in several steps.
    const duringFirst = reports.filter((r) => r.files === 0).map((r) => r.bytesRead)
    expect(distinct(duringFirst)).toBeGreaterThan(10)
    const last = reports.at(-1) as UploadManyProgress
    const total = files.reduce((n, f) => n + f.length, 0)
    expect(last).toMatchObject({ bytesRead: total, bytesDone: total, bytesSent: total })
    expect(result.bytesSent).toBe(total)
  })
})
