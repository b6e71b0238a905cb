// The admin CLI (`npm run cli -- ...`, also behind `npm run seed` and `npm run migrate`): the chat
// bot's jobs and a few admin chores, run against the same DATA_DIR / DATABASE_URL as the server.
import { destination, pino } from 'pino';
import { ConfigError, loadConfig } from '../config';
import { createAppContext } from '../context';
import { openDatabase } from '../db/connect';
import { migrateToLatest } from '../db/migrate';
import { readArgs, USAGE, UsageError } from './args';
import { CliError, runCommand } from './commands';

function fail(json: boolean, message: string, code: number): never {
  if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  else process.stderr.write(`${message}\n`);
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const wantsJson = argv.includes('--json');
  let args;
  try {
    args = readArgs(argv);
  } catch (err) {
    if (err instanceof UsageError)
      fail(wantsJson, wantsJson ? err.message : `${err.message}\n\n${USAGE}`, 2);
    throw err;
  }
  if (args.help || !args.command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(args.json, err.message, 2);
    throw err;
  }
  // Logs go to stderr so that stdout carries only the command's answer.
  const log = pino({ level: 'warn' }, destination(2));
  const database = openDatabase(config.database);
  const ctx = createAppContext(config, database, log);
  try {
    // Every command works on a fresh DATA_DIR; `migrate` reports what it applied itself.
    if (args.command.command !== 'migrate') await migrateToLatest(database.db, database.dialect);
    const output = await runCommand(ctx, args.command);
    process.stdout.write(args.json ? `${JSON.stringify(output.json)}\n` : `${output.text}\n`);
    if (output.exitCode) process.exitCode = output.exitCode;
  } catch (err) {
    if (err instanceof CliError) fail(args.json, err.message, 1);
    fail(args.json, err instanceof Error ? `Failed: ${err.message}` : String(err), 1);
  } finally {
    await database.close();
  }
}

await main(process.argv.slice(2));
