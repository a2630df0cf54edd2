import { describe, expect, it } from 'vitest'
import { collectionLayout } from './collection-layout'

describe('collectionLayout', () => {
  const layout = collectionLayout('/sessions/')

  it('places a session and its dispatch record side by side in one flat directory', () => {
    expect(layout.dir).toBe('/sessions')
    expect(layout.sessionPath('s-1')).toBe('/sessions/s-1.json')
    expect(layout.dispatchedPath('s-1')).toBe('/sessions/s-1.dispatched.json')
  })

  it('parses the paths it makes back into what they hold', () => {
    expect(layout.parse('/sessions/s-1.json')).toEqual({ kind: 'session', id: 's-1' })
    expect(layout.parse('/sessions/s-1.dispatched.json')).toEqual({ kind: 'dispatched', id: 's-1' })
  })

  it.each([
    '/sessions',
    '/sessions/',
    '/sessions/.json',
    '/sessions/s-1.txt',
    '/sessions/a.b.json',
    '/sessions/sub/s-1.json',
    '/other/s-1.json',
    '/sessionsX/s-1.json',
  ])('ignores %s', (path) => {
    expect(layout.parse(path)).toBeUndefined()
  })

  it('refuses a relative collection', () => {
    expect(() => collectionLayout('sessions')).toThrow(TypeError)
  })
})
