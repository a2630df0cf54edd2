import { describe, expect, it } from 'vitest'
import { EngineError } from '../errors'
import { insufficientStorage, noSpaceCode } from './no-space'

const nodeError = (code: string, message: string) => Object.assign(new Error(message), { code })

describe('insufficientStorage', () => {
  it('turns Node ENOSPC and EDQUOT errors into INSUFFICIENT_STORAGE, keeping the cause', () => {
    const cause = nodeError('ENOSPC', "ENOSPC: no space left on device, open '/srv/db/packs/x'")
    const err = insufficientStorage('pack write', cause)
    expect(err).toBeInstanceOf(EngineError)
    expect(err).toMatchObject({ code: 'INSUFFICIENT_STORAGE' })
    expect(err?.message).toMatch(/no space left on the device holding the database directory/)
    expect(err?.message).toContain('pack write failed')
    expect(err?.cause).toBe(cause)
    const quota = insufficientStorage('pack flush', nodeError('EDQUOT', 'EDQUOT: quota'))
    expect(quota?.message).toMatch(/disk quota .* exhausted \(EDQUOT\)/)
  })

  it("recognises LevelDB's IO error text, also nested as a cause", () => {
    const level = new Error('IO error: /srv/db/meta/000005.log: No space left on device')
    const wrapped = Object.assign(new Error('write failed', { cause: level }), {
      code: 'LEVEL_IO_ERROR',
    })
    expect(noSpaceCode(wrapped)).toBe('ENOSPC')
    expect(noSpaceCode(new Error('IO error: x: Disk quota exceeded'))).toBe('EDQUOT')
    expect(insufficientStorage('metadata write', wrapped)?.code).toBe('INSUFFICIENT_STORAGE')
  })

  it('never puts the file-system path of the cause in its message', () => {
    const err = insufficientStorage(
      'metadata write',
      new Error('IO error: /srv/secret/meta/000005.log: No space left on device'),
    )
    expect(err?.message).not.toContain('/srv')
  })

  it('leaves other failures alone', () => {
    expect(insufficientStorage('pack read', nodeError('EIO', 'EIO: i/o error'))).toBeUndefined()
    expect(noSpaceCode(undefined)).toBeUndefined()
    expect(noSpaceCode('ENOSPC')).toBeUndefined()
  })
})
