/**
 * What a key rule's eight permission letters mean (the spec's scoped API key permissions),
 * shown by `svcdb help keys`, `svcdb keys --help` and `svcdb keys create --help`.
 */
export const PERMISSION_HELP = `Permissions: --rule GLOB=FLAGS restricts a key on the paths matching GLOB. Rules are
tried top to bottom and the first match decides; a path no rule matches is denied; a key
without rules keeps its user's permissions. FLAGS is exactly 8 characters, each position
its letter (allowed) or - (denied):
  1  c  create     write new files and directories
  2  r  read       read file contents and metadata
  3  u  update     overwrite or change existing entries
  4  d  delete     delete entries
  5  l  list       list directories
  6  i  invoke     invoke functions
  7  f  functions  deploy functions
  8  y  configure  change configuration (e.g. a directory's .svcdb/indexes.json)
crudlify is full access, -r--l--- read and list only, -------- nothing. Rules only
restrict: a key never gets more than its user has. A scoped key may also read and list
the directories leading to its paths; anything outside them answers "not found".
Example: svcdb keys create --label ci --rule "/builds/**=crud-l--" --rule "/**=-r--l---"`
