import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '@svcdb/engine'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EMAIL_NAMESPACE } from '../email/email-config-store'
import { createEmailService } from '../email/email-service'
import { createConsoleSignIn } from './console-sign-in'

let dir: string
let db: Database

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svcdb-console-sign-in-'))
  db = await Database.open({ path: join(dir, 'data') })
})
afterEach(async () => {
  await db.close()
  await rm(dir, { recursive: true, force: true })
})

const smtp = {
  provider: 'smtp',
  host: '127.0.0.1',
  port: 2525,
  username: 'mailer',
  password: 'secret',
  fromAddress: 'svcdb@example.com',
  tls: false,
} as const

describe('createConsoleSignIn', () => {
  it('offers magic links once email is configured, read afresh each time', async () => {
    const signIn = createConsoleSignIn({ dev: false, db })
    expect(await signIn()).toEqual({ magic_link: false })
    await createEmailService({ db }).configure(smtp)
    expect(await signIn()).toEqual({ magic_link: true })
  })

  it('always offers them in --dev, where links are printed', async () => {
    expect(await createConsoleSignIn({ dev: true, db })()).toEqual({ magic_link: true })
  })

  it('offers none when the stored configuration cannot be read', async () => {
    await db.systemStore(EMAIL_NAMESPACE).batch([{ type: 'put', key: 'config', value: 'not json' }])
    expect(await createConsoleSignIn({ dev: false, db })()).toEqual({ magic_link: false })
  })
})
