import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ta from '../../locales/ta.json';

/**
 * One Tamil term per concept (issue #40 item 8): docs/glossary.md keeps the table, and every string of
 * locales/ta.json follows it: when the English names a concept, the Tamil uses the concept's term, and no Tamil
 * string uses a competing term.
 */

type Tree = { [key: string]: string | Tree };
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

interface Concept {
  concept: string;
  english: RegExp;
  term: string;
  never: string[];
}

/** The rows of the glossary's table: code spans are the pattern, the stem and the terms never used. */
function readGlossary(): Concept[] {
  const doc = fs.readFileSync(path.join(__dirname, '../../docs/glossary.md'), 'utf8');
  const table = doc.slice(doc.indexOf('<!-- glossary:start -->'), doc.indexOf('<!-- glossary:end -->'));
  const rows = table.split('\n').filter((l) => l.startsWith('|') && !/^\|\s*-/.test(l));
  return rows.slice(1).map((row) => {
    const cells = row
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    const code = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\\\|/g, '|'));
    return {
      concept: cells[0],
      english: new RegExp(code(cells[1])[0], 'i'),
      term: code(cells[2])[0],
      never: code(cells[4] ?? ''),
    };
  });
}

const enStrings = flatten(en as Tree);
const taStrings = flatten(ta as Tree);
const glossary = readGlossary();

describe('the Tamil glossary', () => {
  it('names the concepts a shopper meets: cart, hold, call-back, appointment, invoice, order…', () => {
    expect(glossary.map((g) => g.concept)).toEqual(
      expect.arrayContaining(['cart', 'hold', 'call-back', 'appointment', 'invoice', 'order', 'jeweller']),
    );
    for (const g of glossary) expect(g.term, g.concept).toMatch(/[\u0B80-\u0BFF]/);
  });

  for (const g of glossary) {
    it(`uses "${g.term}…" for ${g.concept} wherever the English says it, and never a competing term`, () => {
      const missing: string[] = [];
      let uses = 0;
      for (const [key, english] of enStrings) {
        if (!g.english.test(english.replace(/\{\w+\}/g, ''))) continue;
        uses++;
        const tamil = taStrings.get(key) ?? '';
        if (!tamil.includes(g.term)) missing.push(`${key}: "${english}" → "${tamil}"`);
      }
      expect(uses, `no English string names ${g.concept}`).toBeGreaterThan(0);
      expect(missing).toEqual([]);
      const competing = [...taStrings].filter(([, tamil]) => g.never.some((w) => tamil.includes(w)));
      expect(competing.map(([key, tamil]) => `${key}: "${tamil}"`)).toEqual([]);
    });
  }
});
