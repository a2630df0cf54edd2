/** One step of the breadcrumbs: a directory and the name it is shown by. */
export interface Crumb {
  name: string
  path: string
}

/** The directories from `/` down to `path`, each with its own path (`/` is named `/`). */
export function breadcrumbs(path: string): Crumb[] {
  const crumbs: Crumb[] = [{ name: '/', path: '/' }]
  let current = ''
  for (const segment of path.split('/')) {
    if (segment === '') continue
    current = `${current}/${segment}`
    crumbs.push({ name: segment, path: current })
  }
  return crumbs
}
