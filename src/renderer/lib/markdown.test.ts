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
