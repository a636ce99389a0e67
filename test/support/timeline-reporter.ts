import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * With TIMELINE_FILE set, writes when each file started and ended (seconds from the run's start, and its
 * project) as JSON lines: what `npm test`'s time goes to (docs/console.md, "What it costs"). Silent otherwise.
 */
export default class TimelineReporter implements Reporter {
  private readonly started = Date.now();
  private readonly starts = new Map<string, number>();
  private readonly lines: string[] = [];

  onTestModuleStart(module: TestModule) {
    this.starts.set(module.id, this.seconds());
  }

  onTestModuleEnd(module: TestModule) {
    const file = module.moduleId.replace(`${module.project.config.root}/`, '');
    const start = this.starts.get(module.id) ?? 0;
    this.lines.push(JSON.stringify({ project: module.project.name, file, start, end: this.seconds() }));
  }

  onTestRunEnd() {
    if (process.env.TIMELINE_FILE) writeFileSync(process.env.TIMELINE_FILE, `${this.lines.join('\n')}\n`);
  }

  private seconds() {
    return Math.round((Date.now() - this.started) / 100) / 10;
  }
}
