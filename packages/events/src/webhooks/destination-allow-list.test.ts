import { describe, expect, it } from 'vitest'
import { createDestinationAllowList } from './destination-allow-list'

describe('createDestinationAllowList', () => {
  it('allows nothing when empty and any http(s) URL with *', () => {
    expect(createDestinationAllowList([]).allows('https://example.com')).toBe(false)
    const any = createDestinationAllowList(['*'])
    expect(any.allows('http://10.0.0.1:9/x')).toBe(true)
    expect(any.allows('file:///etc/passwd')).toBe(false)
    expect(any.allows('not a url')).toBe(false)
  })

  it('matches origins exactly, with default ports', () => {
    const allow = createDestinationAllowList([
      'https://Hooks.Example.com',
      'http://127.0.0.1:8080/',
    ])
    expect(allow.allows('https://hooks.example.com/a/b?c')).toBe(true)
    expect(allow.allows('https://hooks.example.com:443/a')).toBe(true)
    expect(allow.allows('https://hooks.example.com:8443/a')).toBe(false)
    expect(allow.allows('http://hooks.example.com/a')).toBe(false)
    expect(allow.allows('https://hooks.example.com.evil.net/a')).toBe(false)
    expect(allow.allows('https://evil.net/?https://hooks.example.com')).toBe(false)
    expect(allow.allows(new URL('http://127.0.0.1:8080/hook'))).toBe(true)
    expect(allow.allows('http://127.0.0.1:8081/hook')).toBe(false)
    expect(allow.allows('http://127.0.0.1/hook')).toBe(false)
  })

  it('matches any port with :* and subdomains with *.', () => {
    const allow = createDestinationAllowList(['http://127.0.0.1:*', 'https://*.example.com'])
    expect(allow.allows('http://127.0.0.1:41234/x')).toBe(true)
    expect(allow.allows('http://127.0.0.1/x')).toBe(true)
    expect(allow.allows('http://127.0.0.2:41234/x')).toBe(false)
    expect(allow.allows('https://a.b.example.com/x')).toBe(true)
    expect(allow.allows('https://example.com/x')).toBe(false)
    expect(allow.allows('https://badexample.com/x')).toBe(false)
  })

  it('handles IPv6 hosts', () => {
    const allow = createDestinationAllowList(['http://[::1]:*'])
    expect(allow.allows('http://[::1]:9000/x')).toBe(true)
    expect(allow.allows('http://[::2]:9000/x')).toBe(false)
  })

  it('refuses malformed entries at once', () => {
    for (const entry of [
      'example.com',
      'https://example.com/path',
      'ftp://x',
      'https://*',
      'https://a*b.com',
      'https://u@x.com',
    ])
      expect(() => createDestinationAllowList([entry]), entry).toThrow(TypeError)
  })
})
