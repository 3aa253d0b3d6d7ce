/** The project's source files, for tests that read the code itself (process boundaries, worker entries). */
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Every .ts/.tsx source file under `dir` (absolute paths), tests and declaration files excluded. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}
