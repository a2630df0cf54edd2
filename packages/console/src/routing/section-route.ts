/**
 * The console's top-level sections, in the order the top bar shows them. `rootOnly` ones are
 * shown to root alone (the server refuses their calls to anyone else anyway).
 */
export const SECTIONS = [
  { id: 'files', label: 'Files', hash: '#/files/', rootOnly: false },
  { id: 'versions', label: 'Versions', hash: '#/versions', rootOnly: false },
  { id: 'identity', label: 'Identity', hash: '#/identity', rootOnly: true },
  { id: 'system', label: 'System', hash: '#/system', rootOnly: true },
] as const

/** One section of the console. */
export type Section = (typeof SECTIONS)[number]['id']

/**
 * The section a location hash belongs to: the first segment after `#/` names it, and the
 * section owns everything after it (`#/files/a/b` is Files, which reads `a/b` itself). An
 * empty or unknown hash is Files, the console's home, which then names its root in the URL.
 */
export function sectionFromHash(hash: string): Section {
  const first = hash.replace(/^#?\/?/, '').split(/[/?]/, 1)[0]
  return SECTIONS.find((section) => section.id === first)?.id ?? 'files'
}

/** The section to show: a root-only one is Files for anyone but root. */
export function visibleSection(section: Section, root: boolean): Section {
  const known = SECTIONS.find((candidate) => candidate.id === section)
  return known === undefined || (known.rootOnly && !root) ? 'files' : section
}
