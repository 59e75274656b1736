import { InputError } from './input-error.ts';

export interface ParsedArgs {
  /** Positional words after the command, in order. */
  words: string[];
  /** `--name value` pairs. */
  options: Map<string, string>;
}

/**
 * Splits arguments into positional words and `--name value` / `--name=value` options, accepting only
 * the option names the command knows.
 * @throws InputError for an unknown option or one without a value.
 */
export function parseArgs(args: readonly string[], known: readonly string[]): ParsedArgs {
  const words: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    if (!known.includes(name)) {
      throw new InputError(
        `unknown option --${name}${known.length ? ` (expected ${known.map((k) => `--${k}`).join(', ')})` : ''}`,
      );
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) throw new InputError(`option --${name} needs a value`);
    options.set(name, value);
  }
  return { words, options };
}

/** The value of a required option. */
export function required(parsed: ParsedArgs, name: string): string {
  const value = parsed.options.get(name);
  if (value === undefined) throw new InputError(`option --${name} is required`);
  return value;
}
