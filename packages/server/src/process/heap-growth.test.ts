import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from './heap-growth'

describe('limitHeapGrowth', () => {
  it("leaves V8's heap growth to an operator who chose it, in Node's arguments or NODE_OPTIONS", () => {
    expect(limitHeapGrowth({ execArgv: ['--heap-growing-percent=80'], nodeOptions: '' })).toBe(
      false,
    )
    expect(
      limitHeapGrowth({
        execArgv: [],
        nodeOptions: '--max-old-space-size=512 --heap_growing_percent=10',
      }),
    ).toBe(false)
  })

  it('sets it otherwise, with a flag this V8 knows', () => {
    // Node refuses a V8 flag it does not know on its command line ("bad option"), where
    // setFlagsFromString would only warn: a Node upgrade that drops the flag fails here.
    const out = execFileSync(
      process.execPath,
      [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`, '-e', 'console.log("ok")'],
      { encoding: 'utf8' },
    )
    expect(out.trim()).toBe('ok')
    expect(limitHeapGrowth({ execArgv: [], nodeOptions: '' })).toBe(true)
  })
})
