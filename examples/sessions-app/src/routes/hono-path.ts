/** A route path of `SESSIONS_APP_ROUTES` (`/x/{id}`) in Hono's syntax (`/x/:id`). */
export function honoPath(path: string): string {
  return path.replace(/\{([a-z_]+)\}/gi, ':$1')
}
