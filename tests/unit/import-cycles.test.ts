import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No import cycles in the app's code, type-only imports included: ESLint's import/no-cycle (eslint.config.js)
 * passes over `import type`, and a type-only cycle still ties two modules together for a reader.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIRS = ['api', 'db', 'pwa/src', 'sw'];
const STATIC_IMPORT = /^\s*(?:import|export)\b[^'";]*?\bfrom\s+'(\.[^']+)'/gm;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find(
    (f) => fs.existsSync(f) && fs.statSync(f).isFile(),
  );
}

/** Every cycle of the static import graph, each as its files from the first one found. */
function findCycles(): string[][] {
  const files = DIRS.flatMap((d) => sourceFiles(path.join(ROOT, d)));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const targets = [...text.matchAll(STATIC_IMPORT)]
      .map((m) => resolve(file, m[1]))
      .filter((f): f is string => f !== undefined && /\.tsx?$/.test(f));
    graph.set(file, targets);
  }
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open')
        cycles.push(stack.slice(stack.indexOf(next)).map((f) => path.relative(ROOT, f)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('import graph', () => {
  it('has no cycles, type-only imports included', () => {
    expect(findCycles()).toEqual([]);
  });
});
