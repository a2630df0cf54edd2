/** Routes of /versions/snapshots, /versions/forks, /versions/history and /versions/restore. */
export const namedVersionRoutes = {} as const
