import { DockerfileParser } from 'dockerfile-ast';
import type { Instruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';

/** One finding in a Dockerfile: the 1-based line and what is wrong. */
export interface DockerfileProblem {
  readonly line: number;
  readonly message: string;
}

/** What an operator image must look like; see {@link operatorImageRules}. */
export interface ImageExpectations {
  /** The only UID (and GID) the runtime stage may run as: the charts' `runAsUser`/`runAsGroup`. */
  readonly uid: number;
  /** The exact exec-form ENTRYPOINT of the runtime stage. */
  readonly entrypoint: readonly string[];
}

/** The operator images' contract with the charts (ADR 0010): UID 65532 and `node /app/main.js`. */
export const OPERATOR_IMAGE: ImageExpectations = { uid: 65532, entrypoint: ['node', '/app/main.js'] };

/**
 * Every problem in a Dockerfile's text, sorted by line: the syntax and style diagnostics of `dockerfile-utils` (the
 * validator behind VS Code's Dockerfile support) followed by {@link operatorImageRules}. Pure; an empty list means
 * the file passes.
 */
export function lintDockerfile(text: string, expected: ImageExpectations = OPERATOR_IMAGE): DockerfileProblem[] {
  const diagnostics = validate(text).map((d) => ({
    line: d.range.start.line + 1,
    message: `dockerfile-utils: ${typeof d.message === 'string' ? d.message : d.message.value}`,
  }));
  return [...diagnostics, ...operatorImageRules(text, expected)].sort((a, b) => a.line - b.line);
}

/**
 * The rules of issue #9 for an operator image, over a Dockerfile's text. Pure. It must be multi-stage; every base
 * image must name a tag or digest other than `latest` (after substituting the defaults of the ARGs before the first
 * FROM); the last (runtime) stage must switch to the non-root numeric `USER uid[:uid]`, run no `RUN` (the runtime
 * image has no shell), copy no `node_modules` (the bundle inlines the production dependencies), and end in the
 * exec-form `ENTRYPOINT` expected.
 */
export function operatorImageRules(text: string, expected: ImageExpectations = OPERATOR_IMAGE): DockerfileProblem[] {
  const dockerfile = DockerfileParser.parse(text);
  const problems: DockerfileProblem[] = [];
  const lineOf = (instruction: Instruction): number => instruction.getRange().start.line + 1;

  const args = new Map<string, string>();
  for (const arg of dockerfile.getInitialARGs()) {
    const property = arg.getProperty();
    const name = property?.getName();
    if (name !== undefined) args.set(name, property?.getValue() ?? '');
  }
  const froms = dockerfile.getFROMs();
  if (froms.length < 2) problems.push({ line: 1, message: `must be multi-stage (a build stage and a runtime stage), found ${froms.length} FROM` });
  const stages = new Set<string>();
  for (const from of froms) {
    const image = substitute(from.getImage() ?? '', args);
    if (!stages.has(image.toLowerCase())) {
      const { tag, digest } = splitImage(image);
      if (digest === undefined && (tag === undefined || tag === 'latest')) {
        problems.push({ line: lineOf(from), message: `base image "${image}" must name a version tag or digest, not ${tag ?? 'no tag'} (latest)` });
      }
    }
    const stage = from.getBuildStage();
    if (stage !== null) stages.add(stage.toLowerCase());
  }

  const last = froms.at(-1);
  if (last === undefined) return problems;
  const runtime = dockerfile.getInstructions().filter((i) => i.getRange().start.line >= last.getRange().start.line);
  const users = runtime.filter((i) => i.getKeyword() === 'USER');
  const user = users.at(-1);
  const wanted = `${expected.uid}:${expected.uid}`;
  if (user === undefined) {
    problems.push({ line: lineOf(last), message: `the runtime stage must set USER ${wanted} (it would run as the base image's user)` });
  } else {
    const value = user.getArgumentsContent()?.trim() ?? '';
    if (!/^\d+(:\d+)?$/.test(value) || value.split(':').some((id) => Number(id) === 0) || (value !== wanted && value !== String(expected.uid))) {
      problems.push({ line: lineOf(user), message: `USER must be the numeric non-root ${wanted} (Kubernetes checks runAsNonRoot on numbers), not "${value}"` });
    }
  }
  for (const run of runtime.filter((i) => i.getKeyword() === 'RUN')) {
    problems.push({ line: lineOf(run), message: 'the runtime stage must not RUN anything: it has no shell' });
  }
  for (const copy of runtime.filter((i) => i.getKeyword() === 'COPY' || i.getKeyword() === 'ADD')) {
    if ((copy.getArgumentsContent() ?? '').includes('node_modules')) {
      problems.push({ line: lineOf(copy), message: 'the runtime stage must not copy node_modules: the bundle inlines the production dependencies' });
    }
  }
  const entrypoint = runtime.filter((i) => i.getKeyword() === 'ENTRYPOINT').at(-1);
  const wantedEntrypoint = JSON.stringify(expected.entrypoint);
  if (entrypoint === undefined) {
    problems.push({ line: lineOf(last), message: `the runtime stage must end in ENTRYPOINT ${wantedEntrypoint}` });
  } else if (execForm(entrypoint.getArgumentsContent() ?? '') !== wantedEntrypoint) {
    problems.push({ line: lineOf(entrypoint), message: `ENTRYPOINT must be the exec form ${wantedEntrypoint} (no shell to interpret a string)` });
  }
  return problems;
}

/** `$NAME` and `${NAME}` replaced by the ARG defaults in `args`; unknown names are left as they are. */
function substitute(text: string, args: ReadonlyMap<string, string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced?: string, bare?: string) => args.get(braced ?? bare ?? '') ?? whole);
}

/** The tag and digest of an image reference; a port in the registry host is not a tag. */
function splitImage(image: string): { tag: string | undefined; digest: string | undefined } {
  const [name = '', digest] = image.split('@');
  const lastSegment = name.slice(name.lastIndexOf('/') + 1);
  const colon = lastSegment.lastIndexOf(':');
  return { tag: colon === -1 ? undefined : lastSegment.slice(colon + 1), digest };
}

/** The instruction's JSON array normalised with `JSON.stringify`, or `''` when it is not an exec-form array. */
function execForm(argumentsText: string): string {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    return Array.isArray(parsed) && parsed.every((part) => typeof part === 'string') ? JSON.stringify(parsed) : '';
  } catch {
    return '';
  }
}
