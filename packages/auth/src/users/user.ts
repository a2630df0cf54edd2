import * as v from 'valibot'
import { parseInput } from '../internal/parse-input'

/** The root user's id: the nil UUID (spec). */
export const ROOT_USER_ID = '00000000-0000-0000-0000-000000000000'

/** A user account (spec "User"); timestamps are Unix milliseconds. */
export interface User {
  /** UUID; the root user has {@link ROOT_USER_ID}. */
  userId: string
  /** Unique, case-insensitively. */
  username: string
  /** Unique, case-insensitively; magic links find the user by it. */
  email?: string
  isActive: boolean
  /** Assigned by root only; groups select users by them. */
  tags: string[]
  createdAt: number
  updatedAt: number
}

/** Fields of a new user. */
export interface CreateUserInput {
  username: string
  email?: string
  tags?: string[]
}

/** Fields to change; `email: null` removes the address. */
export interface UpdateUserInput {
  username?: string
  email?: string | null
  isActive?: boolean
  tags?: string[]
}

/** Most tags one user may carry. */
const MAX_TAGS = 100

const username = v.pipe(
  v.string('must be a string'),
  v.regex(
    /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$/,
    'must be 1 to 64 letters, digits or . _ @ + -, starting with a letter or digit',
  ),
)
const email = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.maxLength(254, 'must be at most 254 characters'),
  v.regex(/^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/, 'must be an email address'),
)
const tag = v.pipe(
  v.string('must be a string'),
  v.regex(
    /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,63}$/,
    'must be 1 to 64 letters, digits or . _ : / - (no commas), starting with a letter or digit',
  ),
)
const tags = v.pipe(
  v.array(tag, 'must be an array of strings'),
  v.maxLength(MAX_TAGS, `at most ${MAX_TAGS} tags`),
  // Order is kept, duplicates are dropped: tags form a set.
  v.transform((list) => [...new Set(list)]),
)

const createUserSchema = v.strictObject(
  {
    username,
    email: v.exactOptional(email),
    tags: v.exactOptional(tags),
  },
  'must be an object with username and optionally email and tags',
)

const updateUserSchema = v.strictObject(
  {
    username: v.exactOptional(username),
    email: v.exactOptional(v.nullable(email)),
    isActive: v.exactOptional(v.boolean('must be a boolean')),
    tags: v.exactOptional(tags),
  },
  'must be an object with any of username, email, isActive and tags',
)

/**
 * Validates the fields of a new user.
 *
 * @throws {AuthError} `INVALID_INPUT` naming the bad field.
 */
export function parseCreateUserInput(input: unknown): CreateUserInput {
  return parseInput(createUserSchema, input)
}

/**
 * Validates a change to a user.
 *
 * @throws {AuthError} `INVALID_INPUT` naming the bad field.
 */
export function parseUpdateUserInput(input: unknown): UpdateUserInput {
  return parseInput(updateUserSchema, input)
}

/** The key under which usernames and emails are unique: trimmed and lower case. */
export function identityKey(value: string): string {
  return value.trim().toLowerCase()
}
