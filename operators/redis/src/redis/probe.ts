/**
 * How the kubelet asks a member whether it serves: `PING` as the replication user, which only a loaded Redis answers
 * with `PONG`. Redis checks authentication before it checks loading, so an anonymous `PING` to a member that
 * requires a password gets `NOAUTH` even while the member answers every authenticated command with `LOADING`: a
 * probe that took `NOAUTH` for an answer made a member Ready seconds (or, for a large dataset, minutes) before it
 * could serve. The replication user is the operator's own (reserved: a RedisUser cannot take its name or change its
 * rules), always has `+ping`, and is on every member from its first start, whatever the user does to `default`.
 */
import type { V1Probe } from '@kubernetes/client-node';
import { REDIS_PORT } from './config-file.ts';

/**
 * The probe's shell command: `username`'s password is read from `passwordFile` into `REDISCLI_AUTH` (never an
 * argument, so never in a process list), and only an exact `PONG` succeeds: `LOADING`, `NOAUTH`, `WRONGPASS`, a
 * refused connection or no answer all fail. Pure.
 */
export function memberProbeCommand(username: string, passwordFile: string, port: number = REDIS_PORT): string {
  return `REDISCLI_AUTH="$(cat ${passwordFile})" redis-cli --user ${username} -p ${port} ping 2>&1 | grep -qx PONG`;
}

/** The members' two probes, both asking {@link memberProbeCommand}. */
export interface MemberProbes {
  /**
   * Every 5 s, unready after two misses (10 s): a replica that loads a full resynchronisation, or a member that
   * stopped answering, leaves its Services.
   */
  readonly readiness: V1Probe;
  /**
   * The same question every second until the member first answers, so that it is Ready within about a second of its
   * data being loaded (the kubelet runs the readiness probe at once when a container has started) instead of at the
   * readiness probe's next 5 s tick. It never gives up (the largest failure threshold the API takes): a dataset may
   * take any time to load, and a startup probe that failed would restart the container and load it again.
   */
  readonly startup: V1Probe;
}

/** The probes of a member whose replication user is `username`, its password in `passwordFile`. Pure. */
export function memberProbes(username: string, passwordFile: string): MemberProbes {
  const exec = { exec: { command: ['sh', '-c', memberProbeCommand(username, passwordFile)] } };
  return {
    readiness: { ...exec, periodSeconds: 5, timeoutSeconds: 2, failureThreshold: 2 },
    startup: { ...exec, periodSeconds: 1, timeoutSeconds: 2, failureThreshold: 2_147_483_647 },
  };
}
