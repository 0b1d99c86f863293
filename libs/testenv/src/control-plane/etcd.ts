import { controlPlanePorts } from './layout.ts';

/** etcd's client URL; plain HTTP on loopback, as envtest does. */
export const etcdClientUrl = `http://127.0.0.1:${controlPlanePorts.etcdClient}`;
const peerUrl = `http://127.0.0.1:${controlPlanePorts.etcdPeer}`;

/**
 * Command-line of a single-member etcd for tests. `--unsafe-no-fsync` trades crash safety for speed:
 * the data is thrown away by `down` anyway. Pure.
 */
export function etcdArgs(dataDir: string): string[] {
  return [
    '--name=testenv',
    `--data-dir=${dataDir}`,
    `--listen-client-urls=${etcdClientUrl}`,
    `--advertise-client-urls=${etcdClientUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=testenv=${peerUrl}`,
    '--initial-cluster-state=new',
    '--unsafe-no-fsync=true',
    '--log-level=warn',
  ];
}

/** etcd's health endpoint: 200 with `{"health":"true"}` once it has a leader and serves. */
export const etcdHealthUrl = `${etcdClientUrl}/health`;
