import * as v from 'valibot'

/** Longest channel name; the same bound as the events package's channel hub. */
export const MAX_CHANNEL_NAME_LENGTH = 256

/** A channel name: 1–256 characters without control characters, as the channel hub accepts. */
export const channelNameSchema = v.pipe(
  v.string(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(MAX_CHANNEL_NAME_LENGTH, `must be at most ${MAX_CHANNEL_NAME_LENGTH} characters`),
  // eslint-disable-next-line no-control-regex
  v.regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters'),
)
