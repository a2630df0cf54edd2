import type { Database } from '@svcdb/engine'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EMAIL_NAMESPACE } from '../email/email-config-store'
import { createEmailService } from '../email/email-service'
import { createConsoleSignIn } from './console-sign-in'
import { openTempDatabase } from '../../test/kit'
import type { TempDatabase } from '../../test/kit'

let temp: TempDatabase
let db: Database

beforeEach(async () => {
  temp = await openTempDatabase('svcdb-console-sign-in-')
  db = temp.db
})
afterEach(async () => {
  await temp.destroy()
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
