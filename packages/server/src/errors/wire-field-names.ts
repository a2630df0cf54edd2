/**
 * The fields of auth's inputs whose TypeScript name (camelCase, auth's API) is not the wire's
 * (snake_case, the spec). Auth's input errors start with the field at fault
 * (`expiresInDays: must be…`), and the caller must read the field it sent.
 */
const AUTH_WIRE_FIELDS: Readonly<Record<string, string>> = {
  userId: 'user_id',
  expiresInDays: 'expires_in_days',
  isActive: 'is_active',
  defaultAllow: 'default_allow',
  defaultDeny: 'default_deny',
  queryField: 'query_field',
  queryOperator: 'query_operator',
  queryValue: 'query_value',
}

/** What may follow the field a message starts with: `field: …`, `field.2 …`, `field[0] …`. */
const AFTER_FIELD = new Set([':', '.', '[', ' '])

/**
 * `message` with the auth field it starts with named as the wire names it; any other message
 * as it is.
 *
 * @example
 * authMessageForWire('queryField: "x" is not one of …') // 'query_field: "x" is not one of …'
 */
export function authMessageForWire(message: string): string {
  for (const [field, wire] of Object.entries(AUTH_WIRE_FIELDS)) {
    if (message.startsWith(field) && AFTER_FIELD.has(message.charAt(field.length)))
      return wire + message.slice(field.length)
  }
  return message
}
