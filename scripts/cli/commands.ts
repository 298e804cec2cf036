import { parseArgs } from 'node:util';

/** Every option any command takes; each command names the ones it accepts. */
const OPTIONS = {
  name: { type: 'string' },
  mode: { type: 'string' },
  environment: { type: 'string' },
  version: { type: 'string' },
  secret: { type: 'string' },
  'client-id': { type: 'string' },
  'plaid-env': { type: 'string' },
  'base-url': { type: 'string' },
  'allowed-hosts': { type: 'string' },
  'application-id': { type: 'string' },
  'private-key-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type OptionName = Exclude<keyof typeof OPTIONS, 'help'>;
export type OptionValues = Partial<Record<OptionName, string>>;

interface CommandSpec {
  /** `<noun> <verb>`. */
  command: string;
  /** Its usage lines, after the command. */
  usage: string[];
  options: OptionName[];
}

export const COMMANDS: CommandSpec[] = [
  { command: 'environments list', usage: [''], options: [] },
  { command: 'environments create', usage: ['--name <name> --mode SANDBOX|PRODUCTION'], options: ['name', 'mode'] },
  { command: 'environments beta', usage: ['<env_…> transactions-refresh on|off'], options: [] },
  { command: 'keys list', usage: ['--environment <env_…>'], options: ['environment'] },
  { command: 'keys create', usage: ['--environment <env_…> [--name <name>] [--version <YYYY-MM-DD>]'], options: ['environment', 'name', 'version'] },
  { command: 'keys import', usage: ['--environment <env_…> --secret <older-generation secret> [--name <name>]'], options: ['environment', 'secret', 'name'] },
  { command: 'keys revoke', usage: ['<key_…>'], options: [] },
  { command: 'keys set-version', usage: ['<key_…> <YYYY-MM-DD>'], options: [] },
  { command: 'encryption reencrypt', usage: ['  (every encrypted value and blob to the current format and the first key of ENCRYPTION_KEYS)'], options: [] },
  { command: 'secrets list', usage: ['  (the session and encryption keys configured and recorded, what each does, and when an older session key can go; never a secret)'], options: [] },
  { command: 'secrets new-session-key', usage: ['[--name <id>]  (prints a new SESSION_KEYS entry once, and the steps that rotate to it)'], options: ['name'] },
  { command: 'secrets accept', usage: ['  (after replacing a session or encryption key on purpose: every process must now have these)'], options: [] },
  { command: 'providers list', usage: ['<env_…>'], options: [] },
  {
    command: 'providers set',
    usage: [
      '<env_…> plaid --client-id <id> --secret <secret> --plaid-env sandbox|production [--base-url <https://…>]',
      '<env_…> simplefin [--allowed-hosts bridge.simplefin.org]',
      '<env_…> enablebanking --application-id <id> --private-key-file <key.pem> [--base-url <https://…>]',
    ],
    options: ['client-id', 'secret', 'plaid-env', 'base-url', 'allowed-hosts', 'application-id', 'private-key-file'],
  },
  { command: 'providers remove', usage: ['<env_…> plaid|simplefin|enablebanking'], options: [] },
];

/** What the command line asks for: a usage text to print (help: exit 0; error: exit 2), or a command to run. */
export type Invocation =
  | { kind: 'help'; text: string }
  | { kind: 'error'; text: string }
  | { kind: 'run'; command: string; args: string[]; values: OptionValues };

/** Reads `argv` (after `npm run cli --`) without touching the database: `--help`/`-h` works anywhere. */
export function parseInvocation(argv: string[]): Invocation {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    if (!(error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS_'))) throw error;
    return usageError(matching(argv.filter((arg) => !arg.startsWith('-'))), error.message.split('. ')[0]!);
  }
  const { positionals, values } = parsed;
  const { help, ...options } = values;
  const [noun = '', verb = '', ...args] = positionals;
  const specs = matching(positionals);
  if (help) return specs.length > 0 ? { kind: 'help', text: usage(specs) } : usageError(COMMANDS, `unknown command "${positionals.join(' ')}"`);
  const spec = COMMANDS.find(({ command }) => command === `${noun} ${verb}`);
  if (!spec) return usageError(specs, !noun ? 'a command is required' : specs.length > 0 && !verb ? `${noun}: a subcommand is required` : `unknown command "${`${noun} ${verb}`.trim()}"`);
  const misplaced = Object.keys(options).find((option) => !spec.options.includes(option as OptionName));
  if (misplaced) return usageError([spec], `--${misplaced} does not apply to ${spec.command}`);
  return { kind: 'run', command: spec.command, args, values: options };
}

/** The commands `positionals` name: one command, a noun's commands, or all of them. */
function matching(positionals: string[]): CommandSpec[] {
  const [noun, verb] = positionals;
  if (!noun) return COMMANDS;
  const exact = COMMANDS.filter(({ command }) => command === `${noun} ${verb}`);
  return exact.length > 0 ? exact : COMMANDS.filter(({ command }) => command.startsWith(`${noun} `));
}

function usage(specs: CommandSpec[]): string {
  const lines = specs.flatMap(({ command, usage: forms }) => forms.map((form) => `  ${command}${form ? ` ${form}` : ''}`));
  return `usage: npm run cli -- <command> [options]   (each command also takes --help, -h)\n${lines.join('\n')}`;
}

function usageError(specs: CommandSpec[], problem: string): Invocation {
  return { kind: 'error', text: `${usage(specs.length > 0 ? specs : COMMANDS)}\nerror: ${problem}` };
}
