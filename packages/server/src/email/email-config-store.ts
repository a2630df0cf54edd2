import type { SystemStore } from '@svcdb/engine'
import type { EmailConfig } from './email-config'
import { EmailError } from './email-error'

/** Where the email configuration persists. */
export interface EmailConfigStore {
  /** The stored configuration, secrets included, or `undefined` before the first save. */
  load(): Promise<EmailConfig | undefined>
  /** Replaces the configuration, durably. */
  save(config: EmailConfig): Promise<void>
}

/** The system-store namespace of the email configuration. */
export const EMAIL_NAMESPACE = 'email'

const KEY = 'config'
const FORMAT = 1

/**
 * The email configuration kept as one JSON record in the database's system store
 * (`db.systemStore('email')`). Secrets are stored as given: the server needs them to send.
 *
 * @example
 * const store = createEmailConfigStore(db.systemStore(EMAIL_NAMESPACE))
 */
export function createEmailConfigStore(store: SystemStore): EmailConfigStore {
  return {
    async load() {
      const text = await store.get(KEY)
      if (text === undefined) return undefined
      let record: { format?: unknown; config?: { provider?: unknown } } | undefined
      try {
        record = JSON.parse(text) as typeof record
      } catch {
        record = undefined
      }
      const provider = record?.config?.provider
      if (record?.format !== FORMAT || (provider !== 'smtp' && provider !== 'oauth')) {
        throw new EmailError(
          'INVALID_CONFIG',
          'the stored email configuration is unreadable; write it again with PUT /system/email-config',
        )
      }
      return record.config as EmailConfig
    },
    async save(config) {
      await store.batch([
        { type: 'put', key: KEY, value: JSON.stringify({ format: FORMAT, config }) },
      ])
    },
  }
}
