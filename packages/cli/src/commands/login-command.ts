import { isClientError } from '@svcdb/client'
import type { Command } from '../command'
import { CliError } from '../cli-error'
import { clientFor, DEFAULT_URL } from '../connection/connect'
import { configPath, readProfiles, writeProfiles } from '../connection/profiles'

async function readLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = ''
  for await (const part of stream) {
    text += part.toString()
    if (text.includes('\n')) break
  }
  return text.split('\n')[0]?.trim() ?? ''
}

/** `svcdb login`: checks a server and key, then saves them as a profile. */
export const loginCommand: Command = {
  name: 'login',
  summary: 'save a server URL and API key as a profile (checked first)',
  usage: '',
  details:
    'The key comes from --api-key, else SVCDB_API_KEY, else one line of standard input\n' +
    '(so it stays out of your shell history: `svcdb login --url URL < keyfile`).\n' +
    'Profiles live in $SVCDB_CONFIG, else $XDG_CONFIG_HOME/svcdb/config.json, else\n' +
    '~/.config/svcdb/config.json, readable by you only. The first profile becomes the default;\n' +
    '--default makes this one the default.',
  options: { default: { type: 'boolean', help: 'Make this profile the default one.' } },
  args: [0, 0],
  async run(_p, values, ctx) {
    const url = (values.url as string | undefined) ?? ctx.env.SVCDB_URL ?? DEFAULT_URL
    let apiKey = (values['api-key'] as string | undefined) ?? ctx.env.SVCDB_API_KEY
    if (apiKey === undefined) {
      if (ctx.io.stdin === undefined)
        throw new CliError('give the API key with --api-key or on stdin')
      apiKey = await readLine(ctx.io.stdin)
    }
    if (apiKey === '') throw new CliError('no API key given')
    // Health proves the URL is a svcdb server, a call that needs a credential proves the key.
    // Stats are refused (403, or 404 to a scoped key) to keys that may not see the whole
    // database, share links included: such a refusal still means the key was accepted.
    const client = clientFor(url, apiKey)
    await client.system.health()
    try {
      await client.system.stats()
    } catch (err) {
      if (!isClientError(err, 'FORBIDDEN') && !isClientError(err, 'NOT_FOUND')) throw err
    }
    const name = (values.profile as string | undefined) ?? 'default'
    const path = configPath(ctx.env)
    const config = await readProfiles(path)
    config.profiles[name] = { url, apiKey }
    if (values.default === true || config.default === undefined) config.default = name
    await writeProfiles(path, config)
    ctx.print(
      { profile: name, url, config: path, default: config.default === name },
      () => `logged in to ${url} as profile '${name}' (${path})\n`,
    )
  },
}
