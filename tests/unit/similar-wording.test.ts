/**
 * The app calls a positive label "similar" (the Annotate keys, Evaluate's "Similar from grade", the
 * Live panel): messages that said "relevant" for it — Evaluate's "No relevant candidate" legend, the
 * metrics' "no query has a relevant candidate" note, the dev-pool refusal, the aggregation threshold's
 * refusals — spoke another vocabulary. Every text the code shows or says (string and template
 * literals, JSX text; comments are not read) is checked for "relevant" used that way. SemEval's own
 * label names (PerfectMatch, Relevant, Irrelevant), the exports' `relevant` column and identifiers are
 * not phrases and are left alone, as are statements naming trec_eval's or the scorer's convention.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../source-files';

const src = path.resolve(import.meta.dirname, '../../src');

/** "relevant" as a word for a positive label: "no relevant candidate", "non-relevant", "a pair is relevant when …". */
const RELEVANT_AS_SIMILAR = /\b(?:no|a|not|any|both a|their|pair|pair is|is) relevant\b|\bnon-relevant\b|\brelevant (?:candidate|label|pair|when|from|iff)\b/i;
/** Statements about another tool's convention keep its term. */
const NAMES_ANOTHER_TOOL = /trec_eval|the scorer/;

/** The texts of a file: its string and template literals (each part), and JSX text. */
function textsOf(file: string): Array<{ line: number; text: string }> {
  const code = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: Array<{ line: number; text: string }> = [];
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteralLike(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n) || ts.isJsxText(n)) {
      out.push({ line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, text: n.text });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('a positive label is "similar" in what QPairs says', () => {
  it('no message, label or note of the CLI, the engine or the app says "relevant" for it', () => {
    const found = sourceFiles(src).flatMap((file) =>
      textsOf(file)
        .filter(({ text }) => RELEVANT_AS_SIMILAR.test(text) && !NAMES_ANOTHER_TOOL.test(text))
        .map(({ line, text }) => `${path.relative(src, file)}:${line}: ${text.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('the check finds the old wordings', () => {
    for (const old of ['No relevant candidate', 'no query has a relevant candidate (convention skip)', ' with a relevant candidate (its convention, skip, leaves out the others)', 'every voted pair relevant', 'both a relevant and a non-relevant candidate']) {
      expect(RELEVANT_AS_SIMILAR.test(old), old).toBe(true);
    }
    for (const kept of ['PerfectMatch, Relevant, Irrelevant', 'query_id,candidate_id,annotator,label,grade,relevant,status', 'semeval3 (perfect / relevant / irrelevant)']) {
      expect(RELEVANT_AS_SIMILAR.test(kept), kept).toBe(false);
    }
  });
});
