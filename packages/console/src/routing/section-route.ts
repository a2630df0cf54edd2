/** The console's top-level sections, in the order the top bar shows them. */
export const SECTIONS = [
  { id: 'files', label: 'Files', hash: '#/files/' },
  { id: 'versions', label: 'Versions', hash: '#/versions' },
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
