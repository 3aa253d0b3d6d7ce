/** Test helper (not used by the app): runs the CLI in-process and captures what it prints. */
import { main } from './index';

export async function runCli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { log: (s) => (out += s + '\n'), err: (s) => (err += s + '\n') });
  return { code, out, err };
}

/** runCli for a command that must succeed: its stdout, or an error naming the command, its exit code and stderr. */
export async function runCliOk(...argv: string[]): Promise<string> {
  const { code, out, err } = await runCli(...argv);
  if (code !== 0) throw new Error(`qpairs ${argv.join(' ')} exited ${code}: ${err}`);
  return out;
}
