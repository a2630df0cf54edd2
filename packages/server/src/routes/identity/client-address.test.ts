import { describe, expect, it } from 'vitest'
import { clientOf } from './client-address'

describe('client address', () => {
  it('keeps IPv4 addresses and unwraps IPv4-mapped ones', () => {
    expect(clientOf('127.0.0.1')).toBe('127.0.0.1')
    expect(clientOf('::ffff:10.1.2.3')).toBe('10.1.2.3')
  })

  it('reduces IPv6 addresses to their /64 network', () => {
    expect(clientOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64')
    expect(clientOf('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64')
    expect(clientOf('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(clientOf('::1')).toBe('0:0:0:0::/64')
    expect(clientOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
  })
})
