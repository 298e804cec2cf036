import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../scripts/cli/commands.ts';

/** `npm run cli -- …args`; no database is configured, so anything that tried to open one would fail. */
function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none', LOG_LEVEL: 'warn' };
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/cli.ts', ...args], { env, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

const STACK_FRAME = /^\s+at /m;

describe('npm run cli', () => {
  it('answers --help and -h with every command, exit 0', async () => {
    for (const flag of ['--help', '-h']) {
      const run = await cli(flag);
      expect(run.code, run.stderr).toBe(0);
      for (const { command } of COMMANDS) expect(run.stdout).toContain(`\n  ${command}`);
    }
  });

  it.each(COMMANDS.map(({ command }) => command))('answers "%s --help" and "-h" with its usage, exit 0', async (command) => {
    for (const flag of ['--help', '-h']) {
      const run = await cli(...command.split(' '), flag);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^usage: npm run cli -- <command> \\[options\\].*\\n  ${command}( |$)`, 'm'));
      expect(run.stdout.trim().split('\n').slice(1).every((line) => line.startsWith(`  ${command}`))).toBe(true);
    }
  });

  it('answers a noun with --help with its commands', async () => {
    const run = await cli('keys', '--help');
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n').slice(1)).toEqual(COMMANDS.filter(({ command }) => command.startsWith('keys ')).map(({ command, usage }) => `  ${command} ${usage[0]}`));
  });

  it.each([
    [['--bogus'], "error: Unknown option '--bogus'"],
    [['keys', 'create', '--environment', 'env_x', '--frobnicate'], "error: Unknown option '--frobnicate'"],
    [['keys', 'list', '--mode', 'SANDBOX'], 'error: --mode does not apply to keys list'],
    [['keys'], 'error: keys: a subcommand is required'],
    [['keys', 'rotate'], 'error: unknown command "keys rotate"'],
    [[], 'error: a command is required'],
  ])('refuses %j with the usage and one error line, exit 2, no stack', async (args, message) => {
    const run = await cli(...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^usage: npm run cli -- /);
    expect(run.stderr.trim().split('\n').filter((line) => line.startsWith('error:'))).toEqual([message]);
    expect(run.stderr.trim().split('\n').at(-1)).toBe(message);
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(run.stdout).toBe('');
  });
});
