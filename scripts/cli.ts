/**
 * Operator CLI: `npm run cli -- <command>`. Works on DATABASE_URL, or on the embedded PostgreSQL under
 * DATA_DIR (sharing it with a running service). Secrets are printed once, to stdout, and never logged.
 * `--help`/`-h` answers before anything heavy loads or any database opens.
 */
import { parseInvocation } from './cli/commands.ts';

const invocation = parseInvocation(process.argv.slice(2));
if (invocation.kind === 'help') {
  console.log(invocation.text);
  process.exit(0);
}
if (invocation.kind === 'error') {
  console.error(invocation.text);
  process.exit(2);
}
const { runCommand } = await import('./cli/run.ts');
process.exit(await runCommand(invocation));
