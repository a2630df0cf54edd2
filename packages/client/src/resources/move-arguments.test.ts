import { describe, expect, it } from 'vitest'
import { copyArguments, moveArguments } from './move-arguments'

describe('moveArguments', () => {
  it('reads the body form and the positional form alike', () => {
    const fork = { fork: 'f' }
    expect(moveArguments({ from: '/a', to: '/b' }, fork, undefined)).toEqual([
      { from: '/a', to: '/b' },
      fork,
    ])
    expect(moveArguments('/a', '/b', fork)).toEqual([{ from: '/a', to: '/b' }, fork])
    expect(moveArguments('/a', '/b', undefined)).toEqual([{ from: '/a', to: '/b' }, {}])
  })

  it('throws TypeError for arguments of neither form', () => {
    expect(() => moveArguments('/a', undefined, undefined)).toThrow(TypeError)
    expect(() => moveArguments('/a', { fork: 'f' }, undefined)).toThrow(/`to` as a string/)
    expect(() => moveArguments({ from: '/a', to: '/b' }, '/c', undefined)).toThrow(TypeError)
  })
})

describe('copyArguments', () => {
  it('reads the body form and the positional form alike', () => {
    const body = { paths: ['/a', '/b'], destination: '/d' }
    expect(copyArguments(body, undefined, undefined)).toEqual([body, {}])
    expect(copyArguments(['/a', '/b'], '/d', { fork: 'f' })).toEqual([body, { fork: 'f' }])
  })

  it('throws TypeError for arguments of neither form', () => {
    expect(() => copyArguments(['/a'], undefined, undefined)).toThrow(/`destination`/)
    expect(() => copyArguments(body(), '/d', undefined)).toThrow(TypeError)
  })
})

function body() {
  return { paths: ['/a'], destination: '/d' }
}
