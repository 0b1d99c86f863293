/**
 * How `npm test` runs the integration and e2e targets against the one shared test environment: first, one at a
 * time and alone, every target of a project without a `lane:<name>` tag (such a project may stop, restart or take
 * over shared components: testenv's own suite kills the node; the local-stack suite runs all three operators
 * cluster-wide); then the lanes side by side, each lane's targets one after another. A lane groups the projects
 * that share something nothing else may touch meanwhile (the Kafka lane's e2e suite stops the broker that the
 * Kafka operator's integration suite talks to), so two lanes must never share a backend or a kind they watch.
 */

/** The integration and e2e targets, in the order a lane runs them within one project. */
export const SUITE_TARGETS = ['integration', 'e2e'] as const;

/** A suite target, as `SUITE_TARGETS` names them. */
export type SuiteTarget = (typeof SUITE_TARGETS)[number];

/** The tag prefix that puts a project into a lane: `lane:kafka`. */
export const LANE_TAG_PREFIX = 'lane:';

/** What the plan needs to know of one Nx project (its `project.json`). */
export interface SuiteProject {
  readonly name: string;
  readonly tags: readonly string[];
  readonly targets: readonly string[];
}

/** One `nx run <project>:<target>`. */
export interface SuiteStep {
  readonly project: string;
  readonly target: SuiteTarget;
}

/** A lane: its steps run one after another, beside the other lanes. */
export interface SuiteLane {
  readonly name: string;
  readonly steps: readonly SuiteStep[];
}

/** The whole run: `alone` first, one step at a time, then every lane side by side. */
export interface SuitePlan {
  readonly alone: readonly SuiteStep[];
  readonly lanes: readonly SuiteLane[];
}

/**
 * The lane a project's tags name, or undefined for none. Throws when a project names two lanes (it cannot run
 * in both, and silently picking one would hide the mistake). Pure.
 */
export function laneOf(project: SuiteProject): string | undefined {
  const lanes = project.tags.filter((tag) => tag.startsWith(LANE_TAG_PREFIX)).map((tag) => tag.slice(LANE_TAG_PREFIX.length));
  if (lanes.length > 1) throw new Error(`project ${project.name} names ${lanes.length} lanes (${lanes.join(', ')}); a project runs in one lane`);
  if (lanes[0] === '') throw new Error(`project ${project.name} has an empty lane tag "${LANE_TAG_PREFIX}"`);
  return lanes[0];
}

/**
 * The plan for `projects`: in each phase and lane every integration step before any e2e step (as the serial run
 * did: an e2e suite may leave its backend changed, e.g. the Kafka suite leaves a second broker running), then by
 * project name; lanes sorted by name; projects without a suite target left out. Deterministic for the same
 * input. Pure.
 */
export function planSuites(projects: readonly SuiteProject[]): SuitePlan {
  const alone: SuiteStep[] = [];
  const lanes = new Map<string, SuiteStep[]>();
  for (const target of SUITE_TARGETS) {
    for (const project of [...projects].sort((a, b) => a.name.localeCompare(b.name))) {
      if (!project.targets.includes(target)) continue;
      const step = { project: project.name, target };
      const lane = laneOf(project);
      if (lane === undefined) {
        alone.push(step);
      } else {
        lanes.set(lane, [...(lanes.get(lane) ?? []), step]);
      }
    }
  }
  return {
    alone,
    lanes: [...lanes.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, steps]) => ({ name, steps })),
  };
}
