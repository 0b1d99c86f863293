/**
 * testenv's pod runner: plays kubelet (and scheduler) for the one workload the project runs in tests, Redis
 * Pods, as real `redis-server` processes on the host. Started by `podRunnerComponent.up` as a detached daemon:
 *
 *     node libs/testenv/src/pod-runner/main.ts --kubeconfig <file> --run-dir <.testenv/run/pod-runner>
 *
 * Choices (where it differs from a kubelet, on purpose):
 * - Node: registers `testenv-node` (Ready, capacity from the host, pods 110, InternalIP 127.0.0.1) and patches
 *   its status every 10 s (`lastHeartbeatTime`); no Lease. After each heartbeat it rewrites `health.json`, which
 *   `healthy()` checks together with the pid.
 * - Scheduler: binds every unbound live pod of `default-scheduler` through `pods/binding` when the node's labels
 *   satisfy its `nodeSelector` (else leaves it Pending). Affinity, taints and resource requests are ignored.
 * - Runnable pods: every container uses a Redis image (last repository path component `redis`, any registry,
 *   tag or digest) and runs redis-server (no `command`, or `command[0]` named redis-server; without `command`
 *   the official entrypoint's rules for `args` apply). Pods with init containers (sidecars included) are not
 *   runnable: a Redis init container would never complete, any other image is not Redis.
 * - Non-runnable pods never pretend to run: phase Pending, each container waiting with reason
 *   `ImageNotRunnable`, and condition `testenv.domain-operators.io/Runnable` False whose message reads
 *   "testenv's pod runner runs only redis images; <image> cannot run here".
 * - Network: each pod gets its own loopback address 127.0.x.y (x 2–254, y 1–254; never 127.0.0.1/127.0.1.1),
 *   chosen from a hash of its UID, kept in `ips.json`, stable for the pod's life and across runner restarts.
 *   redis-server gets `--port` (its own `--port`, else the first TCP containerPort, else 6379), `--bind <podIP>`,
 *   `--daemonize no`, `--logfile ""` and, unless the args or the config file set `dir`, `--dir <workingDir>`
 *   (the container's workingDir, default the image's `/data`, mapped to its volume, else a per-container scratch
 *   directory). Two containers of one pod on the same port: the second waits with CreateContainerConfigError.
 * - Args and env: Kubernetes `$(VAR)` expansion from env (value, secretKeyRef, configMapKeyRef, fieldRef,
 *   resourceFieldRef) and envFrom; a missing required reference → waiting CreateContainerConfigError, retried.
 * - Volumes, under `pods/<uid>/volumes/<name>`: configMap, secret (items, modes), downwardAPI, projected
 *   (configMap, secret, downwardAPI, serviceAccountToken via the TokenRequest API), emptyDir; other types are
 *   empty directories. persistentVolumeClaim (and ephemeral) volumes are `pvc/<namespace>/<claim>` and survive
 *   pod re-creation; a claim's directory is deleted once the claim is gone and no pod uses it. PVCs stay
 *   Pending (no PersistentVolume is made). The control plane runs the pvc-protection controller; as a
 *   safety net the runner also removes the `kubernetes.io/pvc-protection` finalizer of deleted claims no live
 *   pod uses, so namespaces with StatefulSet claims are always deleted. Files are written once per pod (no live update when a
 *   ConfigMap changes).
 * - Path mapping: container paths under a volumeMount's mountPath (subPath/subPathExpr honoured), appearing in
 *   args or in the text files of configMap/secret/downwardAPI/projected volumes, are rewritten to the host
 *   paths (e.g. `dir /data` in a mounted redis.conf). Other absolute paths are left as they are.
 * - Readiness: a real Redis PING to podIP:port (+PONG, or -NOAUTH/-WRONGPASS/-NOPERM, which prove the server
 *   serves); readinessProbe initialDelaySeconds, periodSeconds (default 10; every 250 ms until first ready),
 *   timeoutSeconds, successThreshold and failureThreshold apply whatever the probe's handler (exec/tcp).
 *   Without a readiness probe: Ready once the first PING answers. Liveness and startup probes are ignored.
 * - Exit: the container turns not ready at once; restartPolicy Always restarts, OnFailure on non-zero exit,
 *   Never leaves it terminated (phase Succeeded/Failed once all ended). Backoff 1 s doubling to a 60 s cap,
 *   reset after 2 min of running (kubelet: 10 s to 5 min, reset after 10 min), restartCount counts restarts,
 *   lastState holds the termination (exit code 128+signal for signals).
 * - Deletion: a pod with deletionTimestamp gets SIGTERM, SIGKILL after its grace period, then is deleted with
 *   gracePeriodSeconds 0 (uid precondition), as the kubelet does. A pod that vanishes has its processes stopped
 *   and its files and address released.
 * - Robustness: the pod list-watch relists after every watch end with backoff 0.5 s doubling to 30 s; a 10 s
 *   resync re-examines every pod. A restarted runner does not adopt redis-servers from its pid files: it stops
 *   them and starts the pods again (keeping their addresses), counting one restart with lastState
 *   terminated reason `PodRunnerRestarted`. Redis processes are children of the runner (its process group), so
 *   stopping the runner stops them.
 * - Logs: the runner logs to `.testenv/logs/pod-runner.log`; each container to
 *   `.testenv/run/pod-runner/pods/<uid>/containers/<name>/container.log` (`kubectl logs` is not served).
 */
import { parseArgs } from 'node:util';
import { loadKube } from './kube.ts';
import { layoutAt } from './layout.ts';
import { log } from './log.ts';
import { PodRunner } from './runner.ts';

const { values } = parseArgs({
  options: {
    kubeconfig: { type: 'string' },
    'run-dir': { type: 'string' },
    'log-file': { type: 'string', default: '' },
  },
});
const kubeconfig = values.kubeconfig;
const runDir = values['run-dir'];
if (kubeconfig === undefined || runDir === undefined) {
  process.stderr.write('usage: main.ts --kubeconfig <file> --run-dir <dir>\n');
  process.exit(2);
}

const runner = new PodRunner(loadKube(kubeconfig), layoutAt(runDir, values['log-file']));
let stopping = false;
const stop = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping`);
  runner.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', () => {
  stop('SIGTERM');
});
process.on('SIGINT', () => {
  stop('SIGINT');
});
process.on('unhandledRejection', (err: unknown) => {
  log(`unhandled rejection: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
});
try {
  await runner.start();
} catch (err) {
  log(`pod runner failed to start: ${err instanceof Error ? err.message : String(err)}`);
  await runner.stop();
  process.exit(1);
}
