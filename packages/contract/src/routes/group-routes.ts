/** Routes of /system/groups. */
export const groupRoutes = {} as const
