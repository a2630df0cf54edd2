import { describe, expect, it } from 'vitest'
import { prettyJson, textPreview } from './text-preview'

const utf8 = (text: string) => new TextEncoder().encode(text)

describe('textPreview', () => {
  it('decodes a whole file', () => {
    expect(textPreview(utf8('héllo'), 6)).toEqual({ text: 'héllo', truncated: false })
  })

  it('drops a sequence cut in half at the end of a truncated read', () => {
    const bytes = utf8('aé').subarray(0, 2) // 'a' and the first byte of 'é'
    expect(textPreview(bytes, 3)).toEqual({ text: 'a', truncated: true })
  })
})

describe('prettyJson', () => {
  it('indents JSON and refuses what is not JSON', () => {
    expect(prettyJson('{"a":[1,2]}')).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}')
    expect(prettyJson('{nope')).toBeUndefined()
  })
})
