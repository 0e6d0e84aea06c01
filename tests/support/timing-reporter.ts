import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Where the suite's time goes, printed at the end of every `npm test` (and so in CI's output): each project's
 * wall time (its first file's start to its last file's end) and the time of its files added up, then the slowest
 * 20 files. Also written to `.tmp/vitest-timings.json`.
 */
export default class TimingReporter implements Reporter {
  private readonly started = Date.now();
  private readonly spans = new Map<string, { project: string; file: string; start: number; end?: number }>();

  onTestModuleEnd(module: TestModule): void {
    // A file's time: its environment, its imports and collection, its setup files, then its tests and hooks.
    const d = module.diagnostic();
    const ms =
      d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
    const end = Date.now();
    this.spans.set(module.id, {
      project: module.project.name,
      file: path.relative(process.cwd(), module.moduleId),
      start: end - ms,
      end,
    });
  }

  onTestRunEnd(): void {
    const done = [...this.spans.values()].filter((s) => s.end !== undefined) as {
      project: string;
      file: string;
      start: number;
      end: number;
    }[];
    if (done.length === 0) return;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const projects = new Map<string, { first: number; last: number; files: number; busy: number }>();
    for (const s of done) {
      const p = projects.get(s.project) ?? { first: s.start, last: s.end, files: 0, busy: 0 };
      p.first = Math.min(p.first, s.start);
      p.last = Math.max(p.last, s.end);
      p.files += 1;
      p.busy += s.end - s.start;
      projects.set(s.project, p);
    }
    const lines = [
      '',
      'Time by project (wall: first file start → last file end; files: their times added up):',
    ];
    for (const [name, p] of [...projects].sort((a, b) => a[1].first - b[1].first)) {
      lines.push(
        `  ${name.padEnd(12)} wall ${seconds(p.last - p.first).padStart(9)}   files ${seconds(p.busy).padStart(9)}   (${p.files} files)`,
      );
    }
    lines.push(`  ${'all'.padEnd(12)} wall ${seconds(Date.now() - this.started).padStart(9)}`);
    lines.push('', 'The slowest 20 files:');
    for (const s of [...done].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, 20)) {
      lines.push(`  ${seconds(s.end - s.start).padStart(9)}  ${s.project.padEnd(11)} ${s.file}`);
    }
    console.log(lines.join('\n'));
    fs.mkdirSync('.tmp', { recursive: true });
    fs.writeFileSync(
      '.tmp/vitest-timings.json',
      JSON.stringify({ projects: Object.fromEntries(projects), files: done }, null, 2),
    );
  }
}
