import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown, parseBlocks } from './markdown';
import { highlight } from './highlight';

const html = (source: string): string => renderToStaticMarkup(createElement(Markdown, { source }));

describe('markdown', () => {
  it('parses headings, lists, code and paragraphs', () => {
    expect(parseBlocks('# Title\n\nSome text\nmore text\n\n- a\n- b\n\n1. one\n2. two\n\n```\ncode <b>\n```\n')).toEqual([
      { kind: 'heading', level: 1, text: 'Title' },
      { kind: 'paragraph', text: 'Some text more text' },
      { kind: 'ul', items: ['a', 'b'] },
      { kind: 'ol', items: ['one', 'two'] },
      { kind: 'code', text: 'code <b>' },
    ]);
  });

  it('renders inline bold, italic and code', () => {
    expect(html('Label **similar** when *the same* `problem`.')).toBe(
      '<div class="markdown"><p>Label <strong>similar</strong> when <em>the same</em> <code>problem</code>.</p></div>',
    );
  });

  it('never interprets raw HTML', () => {
    const out = html('<img src=x onerror=alert(1)> **<script>alert(1)</script>**\n\n[link](javascript:alert(1))');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<a');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('markdown tables (export datasheets)', () => {
  it('parses pipe tables with escaped pipes and ragged rows', () => {
    expect(parseBlocks('Intro\n\n| Statistic | Value |\n|---|---|\n| κ a\\|b | 0.5 |\n| short |\n\nAfter')).toEqual([
      { kind: 'paragraph', text: 'Intro' },
      { kind: 'table', head: ['Statistic', 'Value'], rows: [['κ a|b', '0.5'], ['short', '']] },
      { kind: 'paragraph', text: 'After' },
    ]);
  });

  it('renders cells as text (inline markup only)', () => {
    const out = html('| a | b |\n| --- | :---: |\n| **x** | <script>y</script> |');
    expect(out).toContain('<table class="data md-table"><thead><tr><th>a</th><th>b</th></tr></thead>');
    expect(out).toContain('<td><strong>x</strong></td>');
    expect(out).not.toContain('<script');
  });

  it('parses block quotes (the datasheet quotes the guidelines) recursively', () => {
    expect(parseBlocks('> # Similar\n>\n> - **a**\n\nafter')).toEqual([
      { kind: 'quote', blocks: [{ kind: 'heading', level: 1, text: 'Similar' }, { kind: 'ul', items: ['**a**'] }] },
      { kind: 'paragraph', text: 'after' },
    ]);
    expect(html('> <b>x</b>')).toBe('<div class="markdown"><blockquote><p>&lt;b&gt;x&lt;/b&gt;</p></blockquote></div>');
  });

  it("shows an hf-dataset card's YAML front matter as it is, then the datasheet (the Export screen's preview made lists of it)", () => {
    const card = ['---', 'pretty_name: "QPairs pool P"', 'language:', '- en', 'dataset_info:', '  features:', '  - name: query_id', '    dtype: string', '---', '', '# Datasheet: pool "P"', '', 'text'].join('\n');
    expect(parseBlocks(card)).toEqual([
      { kind: 'code', text: card.split('\n').slice(0, 9).join('\n') },
      { kind: 'heading', level: 1, text: 'Datasheet: pool "P"' },
      { kind: 'paragraph', text: 'text' },
    ]);
    // Only a first line "---" opens front matter; a "---" without its end is no front matter.
    expect(parseBlocks('text\n---\na: b\n---')[0]).toEqual({ kind: 'paragraph', text: 'text --- a: b ---' });
    expect(parseBlocks('---\n- a')).toEqual([{ kind: 'paragraph', text: '---' }, { kind: 'ul', items: ['a'] }]);
  });

  it('leaves a pipe line without a separator as a paragraph', () => {
    expect(parseBlocks('| not a table |')).toEqual([{ kind: 'paragraph', text: '| not a table |' }]);
  });
});

describe('highlight', () => {
  it('marks shared terms case-insensitively, whole tokens only', () => {
    const out = renderToStaticMarkup(createElement('p', null, highlight('Best Bank in Doha? banking banks bank.', new Set(['bank', 'doha']))));
    expect(out).toBe('<p>Best <mark class="shared">Bank</mark> in <mark class="shared">Doha</mark>? banking banks <mark class="shared">bank</mark>.</p>');
  });

  it('handles node.js, c++ and possessives like the tokenizer', () => {
    const out = renderToStaticMarkup(createElement('p', null, highlight("Node.js and C++ on Ubuntu's laptop", new Set(['node.js', 'c++', 'ubuntu']))));
    expect(out).toContain('<mark class="shared">Node.js</mark>');
    expect(out).toContain('<mark class="shared">C++</mark>');
    expect(out).toContain("<mark class=\"shared\">Ubuntu&#x27;s</mark>");
  });
});
