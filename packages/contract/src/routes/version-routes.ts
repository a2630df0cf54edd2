/** Routes of /versions/* (export, diff, import, promote). */
export const versionRoutes = {} as const
