import type { Database } from '@svcdb/engine'
import { createEmailConfigStore, EMAIL_NAMESPACE } from '../email/email-config-store'

/**
 * What the console's sign-in screen may offer, as `GET /console/sign-in.json` answers it
 * (console-only: no spec'd response says whether magic links are delivered).
 */
export interface ConsoleSignInView {
  /** `POST /auth/magic-link` delivers links: email is configured, or `--dev` prints them. */
  magic_link: boolean
}

/** Tells the sign-in screen what it may offer; asked on every load of the screen. */
export type ConsoleSignIn = () => Promise<ConsoleSignInView>

/** Where {@link createConsoleSignIn} learns whether magic links are delivered. */
export interface ConsoleSignInOptions {
  /** `--dev`: links are printed, so they are always delivered. */
  dev: boolean
  /** Holds the email configuration (system store namespace `email`). */
  db: Pick<Database, 'systemStore'>
}

/**
 * Answers {@link ConsoleSignInView} from the stored email configuration, read afresh each time
 * so a configuration root saves from the System screen shows at the next sign-in. A stored
 * configuration that cannot be read cannot send either, so it counts as none.
 *
 * @example
 * const signIn = createConsoleSignIn({ dev: config.dev, db })
 * await signIn() // { magic_link: false } until root configures email
 */
export function createConsoleSignIn(options: ConsoleSignInOptions): ConsoleSignIn {
  const store = createEmailConfigStore(options.db.systemStore(EMAIL_NAMESPACE))
  return async () => {
    if (options.dev) return { magic_link: true }
    const config = await store.load().catch(() => undefined)
    return { magic_link: config !== undefined }
  }
}
