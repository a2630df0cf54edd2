import { describe, expect, it } from 'vitest'
import { uploadPercent, uploadPlan } from './upload-plan'

describe('uploadPlan', () => {
  it('puts each file under its name in the directory, with its type', () => {
    const plan = uploadPlan('/docs', [
      new File(['hello'], 'a.txt', { type: 'text/plain' }),
      new File([new Uint8Array(3)], 'b.bin'),
    ])
    expect(plan.totalBytes).toBe(8)
    expect(plan.files.map(({ path, contentType }) => ({ path, contentType }))).toEqual([
      { path: '/docs/a.txt', contentType: 'text/plain' },
      { path: '/docs/b.bin', contentType: 'application/octet-stream' },
    ])
    expect(uploadPlan('/', [new File([''], 'x')]).files[0]?.path).toBe('/x')
  })
})

describe('uploadPercent', () => {
  it('counts whole percents up to 100, and an empty upload as done', () => {
    expect(uploadPercent(0, 200)).toBe(0)
    expect(uploadPercent(199, 200)).toBe(99)
    expect(uploadPercent(200, 200)).toBe(100)
    expect(uploadPercent(0, 0)).toBe(100)
  })
})
