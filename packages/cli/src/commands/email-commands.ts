import { readFile } from 'node:fs/promises'
import type { EmailConfigBody } from '@svcdb/contract'
import type { CommandGroup, CommandContext, OptionValues } from '../command'
import { CliError, usageError } from '../cli-error'
import { EXIT_CODES } from '../exit-codes'
import { stringOption } from '../option-value'
import { formatKeyValue } from '../output/key-value'

// Options that set a string field of the same name (`--from-address` sets `from_address`).
const STRING_FIELDS = [
  'provider',
  'host',
  'username',
  'password',
  'from-address',
  'from-name',
  'oauth-provider',
  'client-id',
  'client-secret',
  'refresh-token',
] as const

/** The configuration from `--file` (JSON; - for stdin), then the flags over it. */
async function configFrom(values: OptionValues, ctx: CommandContext): Promise<EmailConfigBody> {
  const file = stringOption(values.file)
  let config: Record<string, unknown> = {}
  if (file !== undefined) {
    let text: string
    if (file === '-') {
      if (ctx.io.stdin === undefined) throw new CliError('no standard input to read')
      const parts: Buffer[] = []
      for await (const part of ctx.io.stdin) parts.push(Buffer.from(part as Uint8Array))
      text = Buffer.concat(parts).toString('utf8')
    } else {
      text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') throw new CliError(`${file}: no such file`, EXIT_CODES.NOT_FOUND)
        throw err
      })
    }
    try {
      config = JSON.parse(text) as Record<string, unknown>
    } catch {
      throw usageError(`--file ${file} is not JSON`)
    }
    if (typeof config !== 'object' || config === null || Array.isArray(config))
      throw usageError(`--file ${file} must hold a JSON object`)
  }
  for (const flag of STRING_FIELDS) {
    const value = stringOption(values[flag])
    if (value !== undefined) config[flag.replace(/-/g, '_')] = value
  }
  const port = stringOption(values.port)
  if (port !== undefined) {
    if (!/^\d{1,5}$/.test(port)) throw usageError('--port takes a port number')
    config.port = Number(port)
  }
  const tls = stringOption(values.tls)
  if (tls !== undefined) {
    if (tls !== 'true' && tls !== 'false') throw usageError('--tls takes true or false')
    config.tls = tls === 'true'
  }
  if (config.provider === undefined) throw usageError('--provider smtp|oauth is required')
  return config as EmailConfigBody
}

/** `svcdb email …` (root): the server's outgoing email (magic links, share notices). */
export const emailGroup: CommandGroup = {
  name: 'email',
  summary: 'show, set and test the email settings (root)',
  subcommands: [
    {
      name: 'get',
      summary: 'show the email settings, secrets masked',
      usage: '',
      args: [0, 0],
      async run(_p, _v, ctx) {
        const config = await (await ctx.client()).email.getConfig()
        ctx.print(config, () => formatKeyValue(config))
      },
    },
    {
      name: 'set',
      summary: 'replace the email settings (SMTP, or OAuth for gmail, outlook or custom)',
      usage: '',
      details:
        'Examples: svcdb email set --provider smtp --host smtp.example.com --port 587 \\\n' +
        '            --username mailer --password … --from-address svcdb@example.com\n' +
        '          svcdb email set --file email.json      (the same fields as JSON; - for stdin)\n' +
        'A secret in --file (or stdin) stays out of your shell history; flags override the file.',
      options: {
        file: {
          type: 'string',
          value: 'FILE',
          help: 'Read the settings from a JSON file (- for stdin) with the fields the flags set.',
        },
        provider: { type: 'string', value: 'smtp|oauth', help: 'How mail is sent.' },
        host: { type: 'string', help: 'The SMTP server (smtp, and oauth with custom).' },
        port: { type: 'string', help: 'The SMTP port (e.g. 587).' },
        tls: { type: 'string', value: 'true|false', help: 'Use TLS (default true).' },
        username: { type: 'string', help: 'The SMTP user name (smtp).' },
        password: { type: 'string', help: 'The SMTP password (smtp; prefer --file).' },
        'from-address': { type: 'string', value: 'EMAIL', help: 'The sender address.' },
        'from-name': {
          type: 'string',
          value: 'NAME',
          help: 'The sender name shown to recipients.',
        },
        'oauth-provider': {
          type: 'string',
          value: 'gmail|outlook|custom',
          help: 'Whose OAuth the server uses (oauth).',
        },
        'client-id': { type: 'string', value: 'ID', help: 'The OAuth client id (oauth).' },
        'client-secret': {
          type: 'string',
          value: 'SECRET',
          help: 'The OAuth client secret (oauth; prefer --file).',
        },
        'refresh-token': {
          type: 'string',
          value: 'TOKEN',
          help: 'The OAuth refresh token (oauth; prefer --file).',
        },
      },
      args: [0, 0],
      async run(_p, values, ctx) {
        const config = await configFrom(values, ctx)
        const saved = await (await ctx.client()).email.setConfig(config)
        ctx.print(saved, () => formatKeyValue(saved))
      },
    },
    {
      name: 'test',
      summary: 'send a test message; exits 1 when it could not be sent',
      usage: '<to-address>',
      args: [1, 1],
      async run([to], _v, ctx) {
        const result = await (await ctx.client()).email.test(to as string)
        ctx.print(result, () =>
          result.sent ? `sent: ${result.message}\n` : `not sent: ${result.error}\n`,
        )
        return result.sent ? undefined : EXIT_CODES.FAILURE
      },
    },
  ],
}
