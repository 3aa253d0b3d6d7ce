/**
 * The README's command table, `qpairs --help` and the flags each command accepts name the same
 * flags: a flag the CLI takes is in its usage, and a flag in a command's usage is in that command's
 * rows of the README's table ("The CLI"). The accepted flags are the ones a command lists when given
 * one it does not know.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/test-cli';
import { COMMAND_USAGE } from '../../src/main/cli/usage';
import { IMPORT_FORMATS } from '../../src/shared/contract';
import { EXPORT_FORMATS } from '../../src/shared/gold';
import { CORPUS_FORMATS } from '../../src/main/bm25/corpus-export';

const root = path.resolve(import.meta.dirname, '../..');

/** Each command line to ask, as typed before its flags (subcommands included). */
const INVOCATIONS: Record<string, string[][]> = {
  pool: [['pool', 'create'], ['pool', 'list'], ['pool', 'set']],
  annotators: [['annotators', 'list'], ['annotators', 'add'], ['annotators', 'role'], ['annotators', 'invite'], ['annotators', 'revoke']],
  models: [['models', 'list'], ['models', 'delete']],
  corpus: [['corpus', 'export'], ['corpus', 'index']],
};

/** The flags a command accepts, from its unknown-option error (`options: --a, --b`). */
async function acceptedFlags(words: string[]): Promise<string[]> {
  const r = await runCli(...words, 'W.qpairs', '--no-such-flag');
  expect(r.code, r.err).toBe(2);
  const listed = /options: ([^)]*)\)/.exec(r.err);
  if (!listed) {
    expect(r.err).toContain('this command takes no options');
    return [];
  }
  return listed[1]!.split(', ');
}

const flagsOf = (text: string): Set<string> => new Set(text.match(/--[a-z][a-z-]*/g) ?? []);

describe('the README, --help and the CLI agree on every flag', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## The CLI'), readme.indexOf('### Import formats'));
  const rows = section.split('\n').filter((l) => l.startsWith('| `qpairs '));

  for (const cmd of Object.keys(COMMAND_USAGE)) {
    it(`qpairs ${cmd}`, async () => {
      const usage = flagsOf(COMMAND_USAGE[cmd]!);
      for (const words of INVOCATIONS[cmd] ?? [[cmd]]) {
        const notInUsage = (await acceptedFlags(words)).filter((f) => !usage.has(f));
        expect(notInUsage, `${words.join(' ')} accepts flags its usage does not name`).toEqual([]);
      }
      const documented = flagsOf(rows.filter((r) => r.startsWith(`| \`qpairs ${cmd} `)).join(' '));
      const notInReadme = [...usage].filter((f) => !documented.has(f));
      expect(notInReadme, `qpairs ${cmd}'s usage names flags the README's table does not`).toEqual([]);
    });
  }
});

describe('every --format the READMEs name exists', () => {
  it('README.md and datasets/README.md', () => {
    const known = new Set<string>([...IMPORT_FORMATS, ...EXPORT_FORMATS, ...CORPUS_FORMATS, 'F']);
    for (const file of ['README.md', 'datasets/README.md']) {
      const text = readFileSync(path.join(root, file), 'utf8');
      // `--format askubuntu-text` (no such format: the texts import as askubuntu-corpus) was in datasets/README.md.
      const named = [...text.matchAll(/--format ([A-Za-z0-9\\|-]+)/g)].flatMap((m) => m[1]!.split(/\\?\|/));
      expect(named.length, file).toBeGreaterThan(0);
      expect(named.filter((f) => !known.has(f)), file).toEqual([]);
    }
  });
});
