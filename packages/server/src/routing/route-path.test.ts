import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { toHonoPath } from './route-path'

describe('toHonoPath', () => {
  it('turns {name} into one segment and {name*} into the rest of the path, empty included', async () => {
    expect(toHonoPath('/system/tasks/{id}')).toBe('/system/tasks/:id')
    const app = new Hono()
    app.get(toHonoPath('/files/{path*}'), (c) => c.text(`[${c.req.param('path')}]`))
    expect(await (await app.request('/files/a/b.txt')).text()).toBe('[a/b.txt]')
    expect(await (await app.request('/files/')).text()).toBe('[]')
    expect((await app.request('/files')).status).toBe(404)
  })
})
