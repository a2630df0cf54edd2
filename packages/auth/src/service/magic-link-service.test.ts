import { describe, expect, it } from 'vitest'
import { createAuth } from '../create-auth'
import { isAuthError } from '../errors'
import { createKvIdentityStore } from '../store/kv-identity-store'
import { createMemoryKvStore } from '../store/kv-store'
import { createMemoryIdentityStore } from '../store/memory-identity-store'
import type { IdentityStore } from '../store/identity-store'
import { createAuthHarness } from '../testing/auth-harness'
import { expectAuthError } from '../testing/expect-auth-error'
import { MAGIC_LINK_REQUESTED_MESSAGE } from './magic-link-service'

const MINUTE = 60_000

describe('magic links', () => {
  it('deliver a single-use code that signs the user in without a refresh token', async () => {
    const { auth, links } = await createAuthHarness()
    const user = await auth.users.create({ username: 'erin', email: 'Erin@Example.com' })
    expect(await auth.requestMagicLink('erin@example.com')).toEqual({
      message: MAGIC_LINK_REQUESTED_MESSAGE,
    })
    await auth.idle()
    expect(links).toHaveLength(1)
    const [link] = links
    expect(link).toMatchObject({ email: 'Erin@Example.com', userId: user.userId })
    expect(link?.code).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const grant = await auth.verifyMagicLink(link?.code ?? '')
    expect(Object.keys(grant).sort()).toEqual(['expiresIn', 'token'])
    const principal = await auth.authenticate(grant.token)
    expect(principal).toMatchObject({ userId: user.userId, scoped: false, isRoot: false })
    expect(principal.keyId).toBeUndefined()
    await expectAuthError(auth.verifyMagicLink(link?.code ?? ''), 'INVALID_CREDENTIAL')
  })

  it('expire after 15 minutes', async () => {
    const { auth, links, clock } = await createAuthHarness()
    await auth.users.create({ username: 'finn', email: 'finn@example.com' })
    await auth.requestMagicLink('finn@example.com')
    await auth.requestMagicLink('finn@example.com')
    await auth.idle()
    clock.advance(15 * MINUTE - 1)
    await auth.verifyMagicLink(links[0]?.code ?? '')
    clock.advance(1)
    await expectAuthError(auth.verifyMagicLink(links[1]?.code ?? ''), 'INVALID_CREDENTIAL')
  })

  it('answer the same whether or not an active account has the address', async () => {
    const { auth, links } = await createAuthHarness()
    const user = await auth.users.create({ username: 'gus', email: 'gus@example.com' })
    await auth.users.deactivate(user.userId)
    const answers = [
      await auth.requestMagicLink('nobody@example.com'),
      await auth.requestMagicLink('gus@example.com'),
    ]
    await auth.idle()
    expect(answers[0]).toEqual(answers[1])
    expect(links).toHaveLength(0)
  })

  it('answer before the account is even looked up', async () => {
    // A store whose email lookups hang until released: the request must not wait for them.
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const inner = createMemoryIdentityStore()
    const store: IdentityStore = {
      ...inner,
      findUserByEmail: async (email) => {
        await gate
        return inner.findUserByEmail(email)
      },
    }
    const { auth, links } = await createAuthHarness({ store })
    await auth.users.create({ username: 'hana', email: 'hana@example.com' })
    await auth.requestMagicLink('hana@example.com')
    expect(links).toHaveLength(0)
    release()
    await auth.idle()
    expect(links).toHaveLength(1)
  })

  it('allow 5 requests per address per 15 minutes, counted in the store', async () => {
    const { auth, clock, store } = await createAuthHarness()
    for (let i = 0; i < 5; i++) {
      await auth.requestMagicLink('ida@example.com')
      clock.advance(MINUTE)
    }
    const err = await expectAuthError(auth.requestMagicLink('IDA@example.com'), 'RATE_LIMITED')
    expect((err as { retryAfterMs?: number }).retryAfterMs).toBe(10 * MINUTE)
    await auth.requestMagicLink('other@example.com')
    // Another instance over the same store sees the same count.
    await expectAuthError(
      createAuth({ store, clock }).requestMagicLink('ida@example.com'),
      'RATE_LIMITED',
    )
    clock.advance(10 * MINUTE)
    await auth.requestMagicLink('ida@example.com')
  })

  it('limit each client and all clients in memory, before storing anything', async () => {
    const kv = createMemoryKvStore()
    const { auth, clock } = await createAuthHarness({ store: createKvIdentityStore(kv) })
    const rateRecords = async () => (await kv.entries('rate/')).length
    const answers = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => auth.requestMagicLink(`r${i}@example.com`, '10.0.0.1')),
    )
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(20)
    const refused = answers.find((a) => a.status === 'rejected')
    expect(isAuthError(refused?.reason, 'RATE_LIMITED')).toBe(true)
    expect((refused?.reason as Error).message).toMatch(/from this client/)
    expect(await rateRecords()).toBe(20)
    // Without a client name every caller shares one budget.
    for (let i = 0; i < 20; i++) await auth.requestMagicLink(`u${i}@example.com`)
    await expectAuthError(auth.requestMagicLink('u@example.com'), 'RATE_LIMITED')
    // 200 a minute from everyone together.
    for (let c = 0; c < 8; c++) {
      for (let i = 0; i < 20; i++) await auth.requestMagicLink(`c${c}-${i}@example.com`, `c${c}`)
    }
    const err = await expectAuthError(auth.requestMagicLink('z@example.com', 'z'), 'RATE_LIMITED')
    expect(err.message).toMatch(/on this server/)
    expect(await rateRecords()).toBe(200)
    clock.advance(MINUTE)
    await auth.requestMagicLink('z@example.com', 'z')
  })

  it('refuse malformed addresses and codes', async () => {
    const { auth } = await createAuthHarness()
    await expectAuthError(auth.requestMagicLink('not-an-email'), 'INVALID_INPUT')
    await expectAuthError(auth.requestMagicLink(`${'a'.repeat(250)}@example.com`), 'INVALID_INPUT')
    for (const code of ['', 'short', 'A'.repeat(43), 'A'.repeat(44)]) {
      const err = await expectAuthError(auth.verifyMagicLink(code), 'INVALID_CREDENTIAL')
      expect(err.message).toBe('invalid, expired or used magic link code')
    }
  })

  it('let exactly one of 50 concurrent verifications of one code succeed', async () => {
    const { auth, links } = await createAuthHarness()
    await auth.users.create({ username: 'jo', email: 'jo@example.com' })
    await auth.requestMagicLink('jo@example.com')
    await auth.idle()
    const code = links[0]?.code ?? ''
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => auth.verifyMagicLink(code)),
    )
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
  })

  it('report delivery failures to the background error hook', async () => {
    const errors: unknown[] = []
    const { auth } = await createAuthHarness({
      magicLinkSender: { send: () => Promise.reject(new Error('smtp down')) },
      onBackgroundError: (err) => errors.push(err),
    })
    await auth.users.create({ username: 'kim', email: 'kim@example.com' })
    await auth.requestMagicLink('kim@example.com')
    await auth.idle()
    expect(errors).toEqual([new Error('smtp down')])
  })
})
