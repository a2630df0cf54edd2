/** Routes of /files/* and /links/* (files, directories, symlinks). */
export const fileRoutes = {} as const
