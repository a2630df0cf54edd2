/**
 * The `exp` claim of a JWT in Unix milliseconds, or `undefined` when the token is not a
 * readable JWT. Only read to schedule a renewal; the server alone verifies tokens.
 */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1]
  if (payload === undefined) return undefined
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/')
    const json = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='))) as {
      exp?: unknown
    }
    return typeof json.exp === 'number' ? json.exp * 1000 : undefined
  } catch {
    return undefined
  }
}
