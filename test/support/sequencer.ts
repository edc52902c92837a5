import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The browser and engine files that take longest, longest first (docs/testing.md, "Round 6"): most
 * wait on real intervals (2,000 heartbeats, the fault matrix's timeouts and backoffs).
 */
const LONG = [
  'browser/long-session',
  'browser/faults',
  'browser/pageviews',
  'browser/consent-hostile',
  'browser/tracker',
  'engines/consent',
  'engines/platform',
  'engines/vendors',
].map((name) => `/test/${name}.test.ts`);

/**
 * Vitest runs the files it has timings for longest first, and the others largest first. A fresh
 * clone has no timings, and the longest file of all (the long session) is one of the smallest: it
 * would start last and run alone at the end. A project without timings for every file starts the
 * files in `LONG` first, in that order; with them, vitest's own order stands.
 */
export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const timed = (file: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`);
    const rank = (file: TestSpecification) => {
      const at = LONG.findIndex((name) => file.moduleId.endsWith(name));
      return at < 0 ? LONG.length : at;
    };
    // vitest runs the projects one after another in this order: each keeps its place
    const projects = [...new Set(sorted.map((file) => file.project))];
    return projects.flatMap((project) => {
      const own = sorted.filter((file) => file.project === project);
      return own.every(timed) ? own : own.sort((a, b) => rank(a) - rank(b));
    });
  }
}
