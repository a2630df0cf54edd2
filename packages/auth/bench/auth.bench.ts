// Auth benchmarks for scripts/bench.mjs: token exchanges, JWT verifications and rule
// evaluations with 100 rules. Figures are per second on one event loop.
import { createAuth, createMemoryIdentityStore, createRulesEvaluator } from '../src/index'
import type { Rule } from '../src/index'
import { createAccessTokenCodec } from '../src/tokens/access-token'
import { generateSigningKey } from '../src/tokens/signing-key'
import type { BenchResult } from '../../../scripts/bench-protocol'

const DURATION_MS = 1500

/** Runs `op` back to back for a warm-up and then `DURATION_MS`; returns operations per second. */
async function perSecond(op: () => Promise<unknown> | unknown): Promise<number> {
  const warmUntil = performance.now() + 200
  while (performance.now() < warmUntil) await op()
  let count = 0
  const start = performance.now()
  let now = start
  while (now - start < DURATION_MS) {
    for (let i = 0; i < 50; i++) await op()
    count += 50
    now = performance.now()
  }
  return (count / (now - start)) * 1000
}

/** Like {@link perSecond} for synchronous work, without an await per operation. */
function perSecondSync(op: () => unknown): number {
  for (let i = 0; i < 10_000; i++) op()
  let count = 0
  const start = performance.now()
  let now = start
  while (now - start < DURATION_MS) {
    for (let i = 0; i < 1000; i++) op()
    count += 1000
    now = performance.now()
  }
  return (count / (now - start)) * 1000
}

async function bootstrapped() {
  const auth = createAuth({ store: createMemoryIdentityStore() })
  const { rootApiKey } = await auth.bootstrap()
  if (rootApiKey === undefined) throw new Error('no root key')
  return { auth, rootApiKey }
}

/** The auth benchmarks, in the protocol of `scripts/bench.mjs`. */
export const benchmarks = [
  {
    name: 'token exchange',
    async run(): Promise<BenchResult[]> {
      const { auth, rootApiKey } = await bootstrapped()
      const valid = await perSecond(() => auth.exchangeApiKey(rootApiKey))
      const refuse = (key: string) => auth.exchangeApiKey(key).catch(() => undefined)
      const wrongSecret = `${rootApiKey.slice(0, -43)}${'A'.repeat(43)}`
      const unknownPrefix = `svc_ffffffffffffffff_${rootApiKey.slice(-43)}`
      const refusedWrong = await perSecond(() => refuse(wrongSecret))
      const refusedUnknown = await perSecond(() => refuse(unknownPrefix))
      return [
        {
          name: 'token exchanges/s',
          value: valid,
          unit: 'ops/s',
          target: 2000,
          better: 'higher',
          note: 'API key → JWT + refresh token, memory store',
        },
        {
          name: 'refused exchanges/s (wrong secret)',
          value: refusedWrong,
          unit: 'ops/s',
        },
        {
          name: 'refused exchanges/s (unknown prefix)',
          value: refusedUnknown,
          unit: 'ops/s',
          note: 'the digest and constant-time compare still run',
        },
      ]
    },
  },
  {
    name: 'jwt verification',
    async run(): Promise<BenchResult[]> {
      const codec = await createAccessTokenCodec(await generateSigningKey(Date.now()), 3600)
      const { token } = await codec.mint({ subject: 'u', keyId: 'k', now: Date.now() })
      const raw = await perSecond(() => codec.verify(token, Date.now()))
      const { auth, rootApiKey } = await bootstrapped()
      const grant = await auth.exchangeApiKey(rootApiKey)
      const full = await perSecond(() => auth.authenticate(grant.token))
      return [
        { name: 'JWT verifications/s', value: raw, unit: 'ops/s', note: 'EdDSA, claims pinned' },
        {
          name: 'authentications/s',
          value: full,
          unit: 'ops/s',
          note: 'JWT verify + cached key and user checks',
        },
      ]
    },
  },
  {
    name: 'rule evaluation',
    run(): Promise<BenchResult[]> {
      const rules: Rule[] = Array.from({ length: 100 }, (_, i) => ({
        [`/projects/p${i}/${i % 2 === 0 ? '**' : '*.txt'}`]: i % 3 === 0 ? 'crudlify' : '-r--l---',
      }))
      const evaluator = createRulesEvaluator(rules)
      const paths = [
        '/projects/p99/readme.txt',
        '/projects/p50/a/b/c.json',
        '/other/x',
        '/projects',
      ]
      let i = 0
      const value = perSecondSync(() => evaluator.evaluate(paths[i++ % paths.length] ?? '/'))
      return Promise.resolve([
        {
          name: 'rule evaluations/s (100 rules)',
          value,
          unit: 'ops/s',
          note: 'mix of last-rule match, middle match, no match and ancestor',
        },
      ])
    },
  },
]
