import type { Client } from '@svcdb/client'
import { CliError } from '../cli-error'
import { EXIT_CODES } from '../exit-codes'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The id of a user named by id or by username (`alice`), as every command that takes a user
 * accepts both. A username is looked up in the user list (root); none by that name is
 * "not found" (exit 3).
 */
export async function resolveUserId(client: Client, ref: string): Promise<string> {
  if (UUID.test(ref)) return ref
  const users = await client.users.list()
  const user = users.find((u) => u.username === ref)
  if (user === undefined)
    throw new CliError(`no user named ${JSON.stringify(ref)}`, EXIT_CODES.NOT_FOUND)
  return user.user_id
}

/** Usernames by user id, to show who a key or share is for (empty when not root). */
export async function usernames(client: Client): Promise<Map<string, string>> {
  try {
    return new Map((await client.users.list()).map((u) => [u.user_id, u.username]))
  } catch {
    // Only root lists users; others see ids.
    return new Map()
  }
}
