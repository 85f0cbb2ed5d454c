// Vitest runs projects of one `sequence.groupOrder` in one pool and hands it files in the order
// this returns. The reliability files (~5 min together) mostly wait on their own pace — mail fed at
// a rate, kills on a schedule — so they go first: the two longest run side by side from the
// start, and the integration files, one beside whichever reliability file is left, fill the
// second worker as it frees up. Within a project, vitest's own order (slowest or largest first).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const FIRST = 'reliability';

export default class ReliabilityFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (s: TestSpecification) => s.project.config.sequence.groupOrder * 2 + (s.project.name === FIRST ? 0 : 1);
    // Array.prototype.sort is stable: vitest's order holds within each rank.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
