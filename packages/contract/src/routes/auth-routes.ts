/** Routes of /auth/* (token, refresh, magic links, API keys). */
export const authRoutes = {} as const
