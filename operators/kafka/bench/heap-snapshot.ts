// The benchmark's heap snapshot of the operator (BENCH_HEAP_SNAPSHOT=1): the operator runs with
// `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=/tmp` (NODE_OPTIONS; /tmp is the Pod's emptyDir), the benchmark
// sends SIGUSR2 to its host pid, reads the file through /proc/<pid>/root and sums the nodes' self sizes by
// constructor (Chrome DevTools' "Summary" view, shallow sizes).
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The NODE_OPTIONS that let the benchmark ask the operator for a heap snapshot. They replace the image's
 * NODE_OPTIONS, which is unset (operators/Dockerfile), so a snapshot run measures the same process as a plain run: when
 * the image still set `--enable-source-maps`, the two differed by about 90 MiB of RSS (issue #18).
 */
export const HEAP_SNAPSHOT_NODE_OPTIONS = '--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=/tmp';

/** One row of the summary: a constructor (or V8's own kind of node) with how many nodes and their shallow bytes. */
export interface HeapSummaryRow {
  readonly name: string;
  readonly count: number;
  readonly selfMiB: number;
}

/** One object that keeps much of the heap alive: what the dominator tree says it alone retains. */
export interface HeapRetainer {
  readonly name: string;
  readonly retainedMiB: number;
}

/** What a heap snapshot showed: its total, the largest constructors by shallow size, the largest single retainers. */
export interface HeapSummary {
  readonly totalMiB: number;
  readonly nodes: number;
  readonly top: readonly HeapSummaryRow[];
  readonly retainers: readonly HeapRetainer[];
}

/** The parts of a V8 heap snapshot (`.heapsnapshot` JSON) the summary reads. */
export interface Snapshot {
  readonly snapshot: {
    readonly meta: {
      readonly node_fields: readonly string[];
      readonly node_types: readonly [readonly string[], ...unknown[]];
      readonly edge_fields: readonly string[];
      readonly edge_types: readonly [readonly string[], ...unknown[]];
    };
  };
  readonly nodes: readonly number[];
  readonly edges: readonly number[];
  readonly strings: readonly string[];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;

/**
 * Signals the process `pid` to write a heap snapshot into its /tmp, waits until the file stops growing (at most
 * `timeoutMs`), summarises it and deletes it. Rejects when no snapshot appears.
 */
export async function heapSnapshotSummary(pid: number, options: { readonly top?: number; readonly timeoutMs?: number } = {}): Promise<HeapSummary> {
  const dir = `/proc/${pid}/root/tmp`;
  const before = new Set(await snapshotFiles(dir));
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  let file: string | undefined;
  let lastSize = -1;
  let stableSince = 0;
  while (Date.now() < deadline) {
    await sleep(500);
    file ??= (await snapshotFiles(dir)).find((f) => !before.has(f));
    if (file === undefined) continue;
    const size = (await stat(join(dir, file))).size;
    if (size !== lastSize) {
      lastSize = size;
      stableSince = Date.now();
    } else if (size > 0 && Date.now() - stableSince >= 3_000) break;
  }
  if (file === undefined) throw new Error(`no heap snapshot appeared in ${dir}`);
  const path = join(dir, file);
  try {
    return summariseHeapSnapshot(JSON.parse(await readFile(path, 'utf8')) as Snapshot, options.top ?? 15);
  } finally {
    await rm(path, { force: true });
  }
}

async function snapshotFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith('.heapsnapshot'));
}

/** Sums self sizes by constructor name for objects and closures, by V8's node type for the rest (strings, code, arrays). */
export function summariseHeapSnapshot(snapshot: Snapshot, top: number): HeapSummary {
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const rows = new Map<string, { count: number; bytes: number }>();
  let total = 0;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt] ?? 0] ?? '?';
    const size = snapshot.nodes[i + sizeAt] ?? 0;
    total += size;
    const name = type === 'object' || type === 'closure' || type === 'native' ? `${snapshot.strings[snapshot.nodes[i + nameAt] ?? 0] ?? '?'}${type === 'closure' ? ' (closure)' : ''}` : `(${type})`;
    const row = rows.get(name) ?? { count: 0, bytes: 0 };
    row.count++;
    row.bytes += size;
    rows.set(name, row);
  }
  const sorted = [...rows].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top);
  return {
    totalMiB: mib(total),
    nodes: snapshot.nodes.length / width,
    top: sorted.map(([name, row]) => ({ name: name.slice(0, 80), count: row.count, selfMiB: mib(row.bytes) })),
    retainers: largestRetainers(snapshot, top),
  };
}

/**
 * The objects with the largest retained size (what would be freed with them), from the dominator tree over the
 * snapshot's non-weak edges (Cooper, Harvey and Kennedy's iterative algorithm), V8's synthetic roots left out; an
 * object dominated by one already listed is skipped, so the rows never count the same bytes twice.
 */
function largestRetainers(snapshot: Snapshot, top: number): HeapRetainer[] {
  const meta = snapshot.snapshot.meta;
  const width = meta.node_fields.length;
  const edgeWidth = meta.edge_fields.length;
  const n = snapshot.nodes.length / width;
  const typeAt = meta.node_fields.indexOf('type');
  const nameAt = meta.node_fields.indexOf('name');
  const sizeAt = meta.node_fields.indexOf('self_size');
  const countAt = meta.node_fields.indexOf('edge_count');
  const edgeTypeAt = meta.edge_fields.indexOf('type');
  const toAt = meta.edge_fields.indexOf('to_node');
  const weak = meta.edge_types[0].indexOf('weak');
  const nodeTypes = meta.node_types[0];
  const at = (array: ArrayLike<number>, i: number): number => array[i] ?? 0;
  const firstEdge = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) firstEdge[i + 1] = at(firstEdge, i) + at(snapshot.nodes, i * width + countAt);
  const target = (edge: number): number => at(snapshot.edges, edge * edgeWidth + toAt) / width;
  const isWeak = (edge: number): boolean => snapshot.edges[edge * edgeWidth + edgeTypeAt] === weak;
  // Post-order from the root (node 0), iteratively.
  const order = new Int32Array(n).fill(-1);
  const postorder: number[] = [];
  const cursor = firstEdge.slice(0, n);
  const visited = new Uint8Array(n);
  const stack: number[] = [0];
  visited[0] = 1;
  while (stack.length > 0) {
    const node = stack[stack.length - 1] ?? 0;
    let next = -1;
    while (at(cursor, node) < at(firstEdge, node + 1)) {
      const edge = at(cursor, node);
      cursor[node] = edge + 1;
      if (isWeak(edge) || visited[target(edge)] === 1) continue;
      next = target(edge);
      break;
    }
    if (next === -1) {
      stack.pop();
      order[node] = postorder.length;
      postorder.push(node);
    } else {
      visited[next] = 1;
      stack.push(next);
    }
  }
  // Predecessors among reachable nodes (CSR).
  const firstPred = new Uint32Array(n + 1);
  for (const i of postorder) for (let e = at(firstEdge, i); e < at(firstEdge, i + 1); e++) if (!isWeak(e)) firstPred[target(e) + 1] = at(firstPred, target(e) + 1) + 1;
  for (let i = 0; i < n; i++) firstPred[i + 1] = at(firstPred, i + 1) + at(firstPred, i);
  const preds = new Uint32Array(at(firstPred, n));
  const fill = firstPred.slice(0, n);
  for (const i of postorder) {
    for (let e = at(firstEdge, i); e < at(firstEdge, i + 1); e++) {
      if (isWeak(e)) continue;
      const to = target(e);
      preds[at(fill, to)] = i;
      fill[to] = at(fill, to) + 1;
    }
  }
  const idom = new Int32Array(n).fill(-1);
  idom[0] = 0;
  const intersect = (a0: number, b0: number): number => {
    let a = a0;
    let b = b0;
    while (a !== b) {
      while (at(order, a) < at(order, b)) a = at(idom, a);
      while (at(order, b) < at(order, a)) b = at(idom, b);
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let k = postorder.length - 1; k >= 0; k--) {
      const node = postorder[k] ?? 0;
      if (node === 0) continue;
      let dom = -1;
      for (let p = at(firstPred, node); p < at(firstPred, node + 1); p++) {
        const pred = at(preds, p);
        if (idom[pred] === -1) continue;
        dom = dom === -1 ? pred : intersect(pred, dom);
      }
      if (dom !== -1 && idom[node] !== dom) {
        idom[node] = dom;
        changed = true;
      }
    }
  }
  // Retained sizes, children before their dominators (post-order).
  const retained = new Float64Array(n);
  for (const node of postorder) {
    retained[node] = at(retained, node) + at(snapshot.nodes, node * width + sizeAt);
    if (node !== 0) retained[at(idom, node)] = at(retained, at(idom, node)) + at(retained, node);
  }
  const typeOf = (node: number): string => nodeTypes[at(snapshot.nodes, node * width + typeAt)] ?? '?';
  const nameOf = (node: number): string => {
    const type = typeOf(node);
    const name = snapshot.strings[at(snapshot.nodes, node * width + nameAt)] ?? '?';
    return (type === 'object' || type === 'closure' || type === 'native' ? name : `(${type}) ${name}`).replace(/\s+/g, ' ').slice(0, 60);
  };
  const candidates = postorder.filter((node) => node !== 0 && typeOf(node) !== 'synthetic').sort((a, b) => at(retained, b) - at(retained, a));
  const chosen = new Set<number>();
  const underChosen = (node: number): boolean => {
    for (let d = at(idom, node); d !== 0; d = at(idom, d)) if (chosen.has(d)) return true;
    return false;
  };
  for (const node of candidates) {
    if (chosen.size >= top) break;
    if (!underChosen(node)) chosen.add(node);
  }
  // Each with the object that dominates it, which says where it hangs.
  return [...chosen].map((node) => ({ name: `${nameOf(node)} ← ${at(idom, node) === 0 ? '(root)' : nameOf(at(idom, node))}`, retainedMiB: mib(at(retained, node)) }));
}
