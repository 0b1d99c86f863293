// Test support for the work queue's specs.
import type { WorkQueue } from './queue.ts';

/** Takes every key waiting right now, marking each done, in the order handed out. */
export async function takeAll(queue: WorkQueue): Promise<string[]> {
  const out: string[] = [];
  while (queue.len() > 0) {
    const key = await queue.get();
    if (key === undefined) break;
    out.push(key);
    queue.done(key);
  }
  return out;
}
