import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintDockerfile, operatorImageRules } from './dockerfile-rules.ts';
import { dockerfilePath, IMAGE_SYSTEMS, REPO_ROOT } from './repo.ts';

const good = [
  'ARG NODE_VERSION=24.9.0',
  'FROM node:${NODE_VERSION}-bookworm-slim AS build',
  'RUN npm ci',
  'FROM gcr.io/distroless/cc-debian12:nonroot',
  'COPY --from=build /src/dist/main.js /app/',
  'USER 65532:65532',
  'ENTRYPOINT ["node", "/app/main.js"]',
  '',
].join('\n');

const messages = (text: string): string[] => operatorImageRules(text).map((p) => `${p.line}: ${p.message}`);

describe('operatorImageRules', () => {
  it('accepts a multi-stage, pinned, non-root, shell-free image', () => {
    expect(lintDockerfile(good)).toEqual([]);
  });

  it('refuses a single stage', () => {
    expect(messages('FROM node:24.9.0-slim\nUSER 65532:65532\nENTRYPOINT ["node", "/app/main.js"]\n')).toEqual([
      '1: must be multi-stage (a build stage and a runtime stage), found 1 FROM',
    ]);
  });

  it('refuses latest and untagged base images, but not a stage reference or a registry port', () => {
    const text = good
      .replace('FROM gcr.io/distroless/cc-debian12:nonroot', 'FROM gcr.io/distroless/cc-debian12:latest')
      .replace('FROM node:${NODE_VERSION}-bookworm-slim AS build', 'FROM localhost:5000/node AS build');
    expect(messages(text)).toEqual([
      '2: base image "localhost:5000/node" must name a version tag or digest, not no tag (latest)',
      '4: base image "gcr.io/distroless/cc-debian12:latest" must name a version tag or digest, not latest (latest)',
    ]);
    expect(messages(`${good}FROM build AS again\nUSER 65532:65532\nENTRYPOINT ["node", "/app/main.js"]\n`)).toEqual([]);
  });

  it('requires the numeric non-root user of the charts in the runtime stage', () => {
    expect(messages(good.replace('USER 65532:65532', 'USER nonroot'))).toEqual([
      '6: USER must be the numeric non-root 65532:65532 (Kubernetes checks runAsNonRoot on numbers), not "nonroot"',
    ]);
    expect(messages(good.replace('USER 65532:65532', 'USER 0'))).toHaveLength(1);
    expect(messages(good.replace('USER 65532:65532\n', ''))).toEqual([
      '4: the runtime stage must set USER 65532:65532 (it would run as the base image\'s user)',
    ]);
  });

  it('refuses RUN and node_modules in the runtime stage, and a shell-form ENTRYPOINT', () => {
    const text = good
      .replace('USER 65532:65532', 'RUN echo hi\nCOPY --from=build /src/node_modules /app/node_modules\nUSER 65532:65532')
      .replace('ENTRYPOINT ["node", "/app/main.js"]', 'ENTRYPOINT node /app/main.js');
    expect(messages(text)).toEqual([
      '6: the runtime stage must not RUN anything: it has no shell',
      '7: the runtime stage must not copy node_modules: the bundle inlines the production dependencies',
      '9: ENTRYPOINT must be the exec form ["node","/app/main.js"] (no shell to interpret a string)',
    ]);
  });

  it('reports dockerfile-utils diagnostics with their line', () => {
    expect(lintDockerfile(`${good}MAINTAINER someone\n`).map((p) => p.line)).toEqual([8]);
  });
});

describe('operators/Dockerfile', () => {
  const text = readFileSync(dockerfilePath(), 'utf8');

  it('passes the linter and the operator image rules', () => {
    expect(lintDockerfile(text)).toEqual([]);
  });

  it('builds the operator SYSTEM names with Nx, refuses any other, and ships only its bundle', () => {
    expect(text).toContain('npx nx run "${SYSTEM}-operator:build"');
    expect(text).toContain(`case "\${SYSTEM}" in ${IMAGE_SYSTEMS.join(' | ')}) ;;`);
    expect(text).toContain('COPY --from=build /src/dist/operators/${SYSTEM}/main.js /src/dist/operators/${SYSTEM}/main.js.map /app/');
  });

  it.each(IMAGE_SYSTEMS)('is the only Dockerfile: operators/%s has none of its own', (system) => {
    expect(existsSync(join(REPO_ROOT, 'operators', system, 'Dockerfile'))).toBe(false);
  });

  it.each(IMAGE_SYSTEMS)('is what nx run %s-operator:docker builds, with SYSTEM set', (system) => {
    const project = JSON.parse(readFileSync(join(REPO_ROOT, 'operators', system, 'project.json'), 'utf8')) as { targets: { docker: { options: { command: string } } } };
    expect(project.targets.docker.options.command).toBe(`bash scripts/docker-build.sh ${system}`);
    expect(readFileSync(join(REPO_ROOT, 'scripts', 'docker-build.sh'), 'utf8')).toContain('--file operators/Dockerfile --build-arg "SYSTEM=$system"');
  });
});
