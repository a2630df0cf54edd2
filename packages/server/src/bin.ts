#!/usr/bin/env node
import { runServer } from './run-server'

process.exitCode = await runServer(process.argv.slice(2))
