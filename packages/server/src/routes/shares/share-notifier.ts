import type { Auth, Share, User } from '@svcdb/auth'
import type { EmailService } from '../../email'
import type { Logger } from '../../logger'

/** Mails share recipients in the background; the share never waits for SMTP. */
export interface ShareNotifier {
  /**
   * Queues one message per active recipient with an address (users named, members of groups
   * named). Skips everything, without error, when email is not configured (spec). Resolves
   * to how many messages were queued; never rejects, since the shares are already stored.
   */
  notify(shares: readonly Share[]): Promise<number>
  /** Resolves when every queued message has been sent or has failed. */
  idle(): Promise<void>
}

/** Options of {@link createShareNotifier}. */
export interface ShareNotifierOptions {
  auth: Auth
  email: EmailService
  logger: Logger
  /** The server's base URL, for links in the message; known once it listens. */
  baseUrl: () => string
}

/** The share notifier of a server. */
export function createShareNotifier(options: ShareNotifierOptions): ShareNotifier {
  const { auth, email, logger } = options
  const pending = new Set<Promise<void>>()

  /** Who each share reaches: its user, or its group's members now. */
  async function reach(shares: readonly Share[]): Promise<User[][]> {
    const groups = new Map<string, Promise<User[]>>()
    return Promise.all(
      shares.map(async (share) => {
        if (share.subject.kind === 'user') return [await auth.users.get(share.subject.userId)]
        const name = share.subject.name
        if (!groups.has(name)) groups.set(name, auth.groups.members(name))
        return (await groups.get(name)) as User[]
      }),
    )
  }

  return {
    async notify(shares) {
      let reached: User[][]
      try {
        if (shares.length === 0 || !(await email.isConfigured())) return 0
        reached = await reach(shares)
      } catch (err) {
        logger.warn(`share notifications skipped: ${(err as Error).message}`)
        return 0
      }
      const perUser = new Map<string, { user: User; shares: Share[] }>()
      shares.forEach((share, i) => {
        for (const user of reached[i] ?? []) {
          if (!user.isActive || user.email === undefined) continue
          const slot = perUser.get(user.userId) ?? { user, shares: [] }
          slot.shares.push(share)
          perUser.set(user.userId, slot)
        }
      })
      for (const { user, shares: mine } of perUser.values()) {
        const sending: Promise<void> = email
          .send(shareMessage(user, mine, options.baseUrl()))
          .then(
            () => undefined,
            (err: unknown) =>
              logger.warn(
                `share notification to ${user.username} failed: ${(err as Error).message}`,
              ),
          )
          .finally(() => pending.delete(sending))
        pending.add(sending)
      }
      return perUser.size
    },
    async idle() {
      while (pending.size > 0) await Promise.all(pending)
    },
  }
}

function shareMessage(user: User, shares: readonly Share[], baseUrl: string) {
  const lines = shares.map(
    (share) => `  ${share.path} (${share.permissions}): ${baseUrl}/files${encodePath(share.path)}`,
  )
  return {
    to: user.email as string,
    subject: shares.length === 1 ? `Shared with you: ${shares[0]?.path}` : 'Files shared with you',
    text: [
      `Hello ${user.username},`,
      '',
      'These paths on svcdb are now shared with you:',
      ...lines,
      '',
      'Sign in with your API key or a magic link to open them.',
      '',
    ].join('\n'),
  }
}

function encodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/')
}
