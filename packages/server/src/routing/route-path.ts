/**
 * Converts a contract path (`/system/tasks/{id}`, `/files/{path*}`) to Hono's syntax
 * (`/system/tasks/:id`, `/files/:path{.*}`). A rest parameter may be empty, so `/files/`
 * names the root directory.
 */
export function toHonoPath(path: string): string {
  return path.replace(/\{([a-z_][a-z0-9_]*)(\*?)\}/gi, (_match, name: string, rest: string) =>
    rest === '*' ? `:${name}{.*}` : `:${name}`,
  )
}
