import { debianLayer } from './debian-layer.ts';
import { digestHex } from './digest.ts';
import { DISTROLESS_ENV, NONROOT_ID, distrolessCcLayer } from './distroless-cc.ts';
import { fileLayer, type LayerItem } from './file-layer.ts';
import type { ImageDefinition, ImageFacts, LayerSource } from './image-definition.ts';
import { debianVersionTag, imageReference, LOCAL_REPOSITORY } from './image-reference.ts';
import { NOBODY, NONROOT, ROOT, systemFiles, type Account } from './system-files.ts';

/** The operators, each with an image built like `operators/Dockerfile` with `--build-arg SYSTEM=<system>`. */
export const OPERATOR_SYSTEMS = ['kafka', 'opensearch', 'redis'] as const;
/** One of {@link OPERATOR_SYSTEMS}. */
export type OperatorSystem = (typeof OPERATOR_SYSTEMS)[number];

/** Every image id, in build order. */
export const IMAGE_IDS = ['pause', 'busybox', 'redis', 'coredns', 'local-path-provisioner', 'kafka-operator', 'opensearch-operator', 'redis-operator'] as const;
/** One of {@link IMAGE_IDS}. */
export type ImageId = (typeof IMAGE_IDS)[number];

/** A static program and the version its image is tagged with. */
export interface VersionedBinary {
  readonly binary: string;
  /** e.g. `v1.15.0`. */
  readonly version: string;
}

/** What an operator image is made of besides the base. */
export interface OperatorInput {
  /** `dist/operators/<system>`, holding `main.js` and `main.js.map` (`nx run <system>-operator:build`). */
  readonly bundleDir: string;
  /** The chart's default image, `<values image.repository>:<Chart appVersion>`. */
  readonly reference: string;
}

/** The local files the images are built from; only those of the requested images must be given. */
export interface ImageInputs {
  /** The static pause program (sleeps, reaps children). */
  readonly pause?: string;
  readonly coredns?: VersionedBinary;
  readonly localPathProvisioner?: VersionedBinary;
  /** The project's pinned Node binary, copied to `/usr/local/bin/node` as the Dockerfile does. */
  readonly node?: VersionedBinary;
  readonly operators?: Partial<Readonly<Record<OperatorSystem, OperatorInput>>>;
}

/** Labels of the operator images, as the Dockerfile's runtime stage sets them for `SYSTEM=<system>`. Pure. */
export function operatorLabels(system: OperatorSystem): Record<string, string> {
  return {
    'org.opencontainers.image.title': `${system}-operator`,
    'org.opencontainers.image.description': `domain-operators ${system} operator`,
    'org.opencontainers.image.source': 'https://github.com/domain-operators/domain-operators',
    'org.opencontainers.image.licenses': 'Apache-2.0',
  };
}

/**
 * The config of an operator image: distroless's environment and the Dockerfile's runtime stage. Pure. No
 * `NODE_OPTIONS=--enable-source-maps`: the decoded map costs about 90 MiB of RSS once a stack trace is formatted; the
 * map ships in the image for who turns it on.
 */
export function operatorConfig(system: OperatorSystem): ImageDefinition['config'] {
  return {
    user: `${NONROOT_ID}:${NONROOT_ID}`,
    env: [...DISTROLESS_ENV, 'NODE_ENV=production'],
    entrypoint: ['node', '/app/main.js'],
    workingDir: '/app',
    exposedPorts: ['8080/tcp', '8081/tcp'],
    labels: operatorLabels(system),
  };
}

/** Where an operator image puts its files (the Dockerfile's COPY destinations). */
export const OPERATOR_FILES = { node: '/usr/local/bin/node', bundle: '/app/main.js', sourceMap: '/app/main.js.map' } as const;

const PATH_ENV = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** `redis` in Debian's images and the official one: UID and GID 999. */
const REDIS: Account = { name: 'redis', uid: 999, home: '/var/lib/redis', shell: '/usr/sbin/nologin' };
/** The applets the Redis image links to busybox: its readiness probe runs `sh -c 'redis-cli … | grep …'`. */
const REDIS_APPLETS = ['sh', 'grep', 'cat', 'ls', 'nc', 'sleep'];
/** The applets of the busybox image: enough for the local-path helper's `sh -c 'mkdir …'`/`rm -rf` and debugging. */
const BUSYBOX_APPLETS = [
  'sh', 'ash', 'cat', 'chmod', 'chown', 'cp', 'date', 'df', 'du', 'echo', 'env', 'false', 'find', 'grep', 'head',
  'hostname', 'id', 'kill', 'ln', 'ls', 'mkdir', 'mktemp', 'mv', 'nc', 'ps', 'pwd', 'rm', 'rmdir', 'sed', 'sleep',
  'sort', 'stat', 'tail', 'tar', 'tee', 'test', 'touch', 'true', 'uname', 'wc', 'which', 'xargs', '[',
];

const dir = (path: string, mode: number, uid = 0, gid = uid): LayerItem => ({ type: 'directory', path, mode, uid, gid });
const applets = (names: readonly string[]): LayerItem[] => names.map((name) => ({ type: 'symlink', path: `/bin/${name}`, target: '/bin/busybox' }));
const binary = (path: string, source: string): LayerItem => ({ type: 'file', path, source, mode: 0o755, uid: 0, gid: 0 });
const debianVersion = (facts: ImageFacts, pkg: string): string => {
  const version = facts.packages.get(pkg);
  if (version === undefined) throw new Error(`images: ${pkg} is not among the image's packages`);
  return version;
};

/**
 * The definitions of `ids`, in that order, from `inputs` (one table: this function). Layer sources are created
 * once per call and shared, so images built together plan and build a common layer once. Throws, naming every
 * missing input, when an input of a requested image is absent.
 *
 * - `pause`: `/pause`, user 65535, `localhost/domain-operators/pause:<first 12 hex of its manifest digest>`.
 * - `busybox`: `busybox-static` with {@link BUSYBOX_APPLETS} in `/bin`, root, `Cmd ["sh"]`, tagged with the
 *   Debian version (`localhost/domain-operators/busybox:1.35.0-4_deb12u1_b1`).
 * - `redis`: Debian's `redis-server` and `redis-tools` plus busybox's `sh grep cat ls nc sleep`, user 999,
 *   `WorkingDir /data` (owned 999), `Cmd ["redis-server"]`, tagged with redis-server's Debian version.
 * - `coredns`, `local-path-provisioner`: the static binary on a base of `/etc/passwd` (root, nonroot, nobody),
 *   `/tmp` and `/home/nonroot`, user 65532, `Entrypoint [binary]`, tagged with the given version.
 * - `<system>-operator`: the runtime stage of `operators/Dockerfile` (`SYSTEM=<system>`) on {@link distrolessCcLayer},
 *   named as the chart's default image.
 */
export function defineImages(ids: readonly ImageId[], inputs: ImageInputs): ImageDefinition[] {
  const missing: string[] = [];
  const need = <T>(value: T | undefined, what: string): T | undefined => {
    if (value === undefined) missing.push(what);
    return value;
  };
  let cc: LayerSource | undefined;
  let nodeLayer: LayerSource | undefined;
  let staticBase: LayerSource | undefined;
  const ccLayer = (): LayerSource => (cc ??= distrolessCcLayer());
  const staticBaseLayer = (): LayerSource =>
    (staticBase ??= fileLayer({
      description: 'static base (passwd, group, /tmp, /home/nonroot)',
      items: [...systemFiles({ accounts: [ROOT, NONROOT, NOBODY], groups: [{ name: 'root', gid: 0 }, { name: 'nonroot', gid: NONROOT.uid }, { name: 'nobody', gid: NOBODY.uid }] }), dir('/tmp', 0o1777), dir('/home/nonroot', 0o700, NONROOT.uid)],
    }));

  const definitions = ids.map((id): ImageDefinition | undefined => {
    switch (id) {
      case 'pause': {
        const pause = need(inputs.pause, 'pause: the pause binary');
        if (pause === undefined) return undefined;
        return {
          id,
          layers: [fileLayer({ description: 'pause', items: [binary('/pause', pause)] })],
          config: { user: '65535:65535', entrypoint: ['/pause'] },
          reference: (facts) => imageReference(`${LOCAL_REPOSITORY}/pause`, digestHex(facts.manifestDigest).slice(0, 12)),
        };
      }
      case 'busybox':
        return {
          id,
          layers: [
            debianLayer({
              description: 'busybox',
              packages: ['busybox-static'],
              items: [
                ...systemFiles({ accounts: [ROOT, NOBODY], groups: [{ name: 'root', gid: 0 }, { name: 'nobody', gid: NOBODY.uid }] }),
                dir('/root', 0o700),
                dir('/tmp', 0o1777),
                ...applets(BUSYBOX_APPLETS),
              ],
            }),
          ],
          config: { env: [PATH_ENV], cmd: ['sh'] },
          reference: (facts) => imageReference(`${LOCAL_REPOSITORY}/busybox`, debianVersionTag(debianVersion(facts, 'busybox-static'))),
        };
      case 'redis':
        return {
          id,
          layers: [
            debianLayer({
              description: 'redis',
              packages: ['redis-server', 'redis-tools', 'busybox-static'],
              items: [
                ...systemFiles({
                  accounts: [ROOT, REDIS, NOBODY],
                  groups: [{ name: 'root', gid: 0 }, { name: 'adm', gid: 4 }, { name: 'redis', gid: REDIS.uid }, { name: 'nobody', gid: NOBODY.uid }],
                }),
                // What redis-tools' postinst creates; /data is the official image's working directory.
                dir('/var/lib/redis', 0o750, REDIS.uid),
                dir('/var/log/redis', 0o2750, REDIS.uid, 4),
                dir('/data', 0o755, REDIS.uid),
                dir('/tmp', 0o1777),
                ...applets(REDIS_APPLETS),
              ],
              // What redis-server's and redis-tools' postinst do with dpkg-statoverride.
              adjustments: [
                { path: '/etc/redis', mode: 0o2770, uid: REDIS.uid, gid: REDIS.uid },
                { path: '/etc/redis/redis.conf', mode: 0o640, uid: REDIS.uid, gid: REDIS.uid },
              ],
            }),
          ],
          config: { user: `${REDIS.uid}:${REDIS.uid}`, env: [PATH_ENV], cmd: ['redis-server'], workingDir: '/data', exposedPorts: ['6379/tcp'] },
          reference: (facts) => imageReference(`${LOCAL_REPOSITORY}/redis`, debianVersionTag(debianVersion(facts, 'redis-server'))),
        };
      case 'coredns':
      case 'local-path-provisioner': {
        const input = need(id === 'coredns' ? inputs.coredns : inputs.localPathProvisioner, `${id}: the ${id} binary and version`);
        if (input === undefined) return undefined;
        const path = id === 'coredns' ? '/coredns' : '/usr/bin/local-path-provisioner';
        return {
          id,
          layers: [staticBaseLayer(), fileLayer({ description: `${id} ${input.version}`, items: [binary(path, input.binary)] })],
          config: { user: `${NONROOT_ID}:${NONROOT_ID}`, env: [PATH_ENV], entrypoint: [path] },
          reference: () => imageReference(`${LOCAL_REPOSITORY}/${id}`, input.version),
        };
      }
      case 'kafka-operator':
      case 'opensearch-operator':
      case 'redis-operator': {
        const system = id.slice(0, id.indexOf('-')) as OperatorSystem;
        const node = need(inputs.node, 'node: the pinned Node binary');
        const operator = need(inputs.operators?.[system], `${id}: dist/operators/${system} (nx run ${id}:build) and the chart's image`);
        if (node === undefined || operator === undefined) return undefined;
        nodeLayer ??= fileLayer({ description: `node ${node.version}`, items: [binary(OPERATOR_FILES.node, node.binary)] });
        const file = (path: string, source: string): LayerItem => ({ type: 'file', path, source, mode: 0o644, uid: 0, gid: 0 });
        return {
          id,
          layers: [
            ccLayer(),
            nodeLayer,
            fileLayer({
              description: `${id} bundle`,
              items: [dir('/app', 0o755), file(OPERATOR_FILES.bundle, `${operator.bundleDir}/main.js`), file(OPERATOR_FILES.sourceMap, `${operator.bundleDir}/main.js.map`)],
            }),
          ],
          config: operatorConfig(system),
          reference: () => operator.reference,
        };
      }
    }
  });
  if (missing.length > 0) throw new Error(`images: missing inputs: ${missing.join('; ')}`);
  return definitions.filter((d): d is ImageDefinition => d !== undefined);
}
