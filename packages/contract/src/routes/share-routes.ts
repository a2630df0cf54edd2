/** Routes of /files/share* (shares and share links). */
export const shareRoutes = {} as const
