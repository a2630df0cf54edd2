/** Routes of /system/users. */
export const userRoutes = {} as const
