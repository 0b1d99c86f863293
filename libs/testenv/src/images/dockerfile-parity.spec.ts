// The operator images built here must be what `operators/Dockerfile` builds with `--build-arg SYSTEM=<system>`: the
// Dockerfile stays the truth, and this test fails as soon as it and an image definition drift apart.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DockerfileParser, PropertyInstruction, type Instruction } from 'dockerfile-ast';
import { describe, expect, it } from 'vitest';
import { DISTROLESS_ENV } from './distroless-cc.ts';
import { OPERATOR_FILES, OPERATOR_SYSTEMS, operatorConfig, type OperatorSystem } from './definitions.ts';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));

/** What the runtime (last) stage of a Dockerfile sets, normalised like the image config holds it. */
interface RuntimeStage {
  readonly base: string;
  readonly nodeVersion: string | undefined;
  readonly user: string | undefined;
  readonly entrypoint: readonly string[] | undefined;
  readonly env: readonly string[];
  readonly workingDir: string | undefined;
  readonly exposedPorts: readonly string[];
  readonly labels: Readonly<Record<string, string>>;
  /** Every file a COPY puts in place, as `destination ← source`. */
  readonly copies: readonly string[];
}

/** A value as the Dockerfile's shell-like syntax means it: surrounding quotes removed, backslash escapes resolved. */
function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) return value.slice(1, -1).replace(/\\(.)/g, '$1');
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1);
  return value;
}

/**
 * `value` with `$NAME` and `${NAME}` replaced, as Docker does, for the build arguments `declared` in the stage (an
 * ARG's scope is its stage); a variable the stage does not declare stays as written, so the comparison shows it.
 */
function expand(value: string, declared: ReadonlySet<string>, buildArgs: Readonly<Record<string, string>>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? '';
    const given = buildArgs[name];
    return declared.has(name) && given !== undefined ? given : whole;
  });
}

/** The runtime (last) stage of `text` as `docker build` with `buildArgs` (`--build-arg NAME=value`) makes it. */
function runtimeStage(text: string, buildArgs: Readonly<Record<string, string>>): RuntimeStage {
  const dockerfile = DockerfileParser.parse(text);
  const from = dockerfile.getFROMs().at(-1);
  if (from === undefined) throw new Error('no FROM');
  const start = from.getRange().start.line;
  const stage = dockerfile.getInstructions().filter((i) => i.getRange().start.line > start);
  const declared = new Set(stage.flatMap((i) => (i.getKeyword() === 'ARG' && i instanceof PropertyInstruction ? i.getProperties().map((p) => p.getName()) : [])));
  const resolve = (value: string): string => expand(value, declared, buildArgs);
  const last = (keyword: string): Instruction | undefined => stage.filter((i) => i.getKeyword() === keyword).at(-1);
  const properties = (keyword: string): [string, string][] =>
    stage
      .filter((i): i is PropertyInstruction => i.getKeyword() === keyword && i instanceof PropertyInstruction)
      .flatMap((i) => i.getProperties().map((p): [string, string] => [p.getName(), resolve(unquote(p.getValue() ?? ''))]));
  const entrypoint = last('ENTRYPOINT')?.getArgumentsContent();
  const copies = stage
    .filter((i) => i.getKeyword() === 'COPY')
    .flatMap((copy) => {
      const args = copy.getArguments().map((a) => resolve(a.getValue())).filter((a) => !a.startsWith('--'));
      const destination = args.at(-1) ?? '';
      return args.slice(0, -1).map((source) => `${destination.endsWith('/') ? `${destination}${source.slice(source.lastIndexOf('/') + 1)}` : destination} ← ${source}`);
    });
  const nodeArg = dockerfile.getInitialARGs().find((a) => a.getProperty()?.getName() === 'NODE_VERSION');
  return {
    base: from.getImage() ?? '',
    nodeVersion: nodeArg?.getProperty()?.getValue() ?? undefined,
    user: last('USER')?.getArgumentsContent()?.trim(),
    entrypoint: entrypoint === undefined || entrypoint === null ? undefined : (JSON.parse(entrypoint) as string[]),
    env: properties('ENV').map(([k, v]) => `${k}=${v}`),
    workingDir: last('WORKDIR')?.getArgumentsContent()?.trim(),
    exposedPorts: stage.filter((i) => i.getKeyword() === 'EXPOSE').flatMap((i) => i.getArguments().map((a) => (a.getValue().includes('/') ? a.getValue() : `${a.getValue()}/tcp`))),
    labels: Object.fromEntries(properties('LABEL')),
    copies,
  };
}

/** Every way `stage` differs from the image definition of `system`; empty when they agree. */
function parityProblems(system: OperatorSystem, stage: RuntimeStage, pinnedNode: string): string[] {
  const config = operatorConfig(system);
  const problems: string[] = [];
  const same = (what: string, dockerfile: unknown, definition: unknown): void => {
    if (JSON.stringify(dockerfile) !== JSON.stringify(definition)) problems.push(`${what}: Dockerfile ${JSON.stringify(dockerfile)}, definition ${JSON.stringify(definition)}`);
  };
  same('base image (replicated by distroless-cc.ts)', stage.base, 'gcr.io/distroless/cc-debian12:nonroot');
  same('ARG NODE_VERSION (the pinned node devDependency)', stage.nodeVersion, pinnedNode);
  same('USER', stage.user, config.user);
  same('ENTRYPOINT', stage.entrypoint, config.entrypoint);
  same('ENV (after the base image environment)', [...DISTROLESS_ENV, ...stage.env], config.env);
  same('WORKDIR', stage.workingDir, config.workingDir);
  same('EXPOSE', stage.exposedPorts, config.exposedPorts);
  same('LABEL', stage.labels, config.labels);
  same('COPY', stage.copies, [
    `${OPERATOR_FILES.node} ← /usr/local/bin/node`,
    `${OPERATOR_FILES.bundle} ← /src/dist/operators/${system}/main.js`,
    `${OPERATOR_FILES.sourceMap} ← /src/dist/operators/${system}/main.js.map`,
  ]);
  return problems;
}

const pinnedNode = (JSON.parse(readFileSync(`${repo}package.json`, 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['node'] ?? '';
const dockerfile = readFileSync(`${repo}operators/Dockerfile`, 'utf8');
const built = (system: OperatorSystem, text = dockerfile): RuntimeStage => runtimeStage(text, { SYSTEM: system });

describe('operator image definitions and the Dockerfile', () => {
  for (const system of OPERATOR_SYSTEMS) {
    it(`${system}: the runtime stage of operators/Dockerfile with SYSTEM=${system} is what the image definition builds`, () => {
      expect(parityProblems(system, built(system), pinnedNode)).toEqual([]);
    });
  }

  it('fails when the Dockerfile changes what the image holds or how it runs', () => {
    const modified = dockerfile
      .replace('USER 65532:65532', 'USER 1000:1000')
      .replace('EXPOSE 8080 8081', 'EXPOSE 8080 9090')
      .replace('ENV NODE_ENV=production', 'ENV NODE_ENV=production NODE_OPTIONS=--enable-source-maps')
      .replace('org.opencontainers.image.licenses="Apache-2.0"', 'org.opencontainers.image.licenses="MIT"')
      .replace('main.js.map /app/', 'main.js.map /srv/');
    const problems = parityProblems('kafka', built('kafka', modified), pinnedNode);
    expect(problems.map((p) => p.slice(0, p.indexOf(':')))).toEqual(['USER', 'ENV (after the base image environment)', 'EXPOSE', 'LABEL', 'COPY']);
    expect(parityProblems('redis', built('kafka'), pinnedNode).map((p) => p.slice(0, p.indexOf(':')))).toEqual(['LABEL', 'COPY']);
  });

  it('fails when the runtime stage does not declare ARG SYSTEM (Docker would leave ${SYSTEM} empty there)', () => {
    const undeclared = dockerfile.replace(/^(FROM gcr\.io\/distroless[^\n]*\n(?:#[^\n]*\n)*)ARG SYSTEM\n/m, '$1');
    expect(undeclared).not.toBe(dockerfile);
    expect(parityProblems('kafka', built('kafka', undeclared), pinnedNode).map((p) => p.slice(0, p.indexOf(':')))).toEqual(['LABEL', 'COPY']);
  });
});
