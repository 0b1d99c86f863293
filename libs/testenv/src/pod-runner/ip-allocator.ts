import { createHash } from 'node:crypto';

/** Third octets used for pod addresses: 127.0.2.0/24 to 127.0.254.0/24 (never 127.0.0.x, 127.0.1.x). */
const FIRST_SUBNET = 2;
const LAST_SUBNET = 254;
/** Host octets used in each /24: 1..254 (no network or broadcast look-alikes). */
const FIRST_HOST = 1;
const LAST_HOST = 254;
const HOSTS_PER_SUBNET = LAST_HOST - FIRST_HOST + 1;
/** How many pod addresses exist. */
export const POD_IP_CAPACITY = (LAST_SUBNET - FIRST_SUBNET + 1) * HOSTS_PER_SUBNET;

function ipAt(index: number): string {
  const subnet = FIRST_SUBNET + Math.floor(index / HOSTS_PER_SUBNET);
  const host = FIRST_HOST + (index % HOSTS_PER_SUBNET);
  return `127.0.${subnet}.${host}`;
}

/** True when `ip` is inside the pod address range (so never 127.0.0.1 nor 127.0.1.1). Pure. */
export function isPodIp(ip: string): boolean {
  const match = /^127\.0\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (match === null) return false;
  const subnet = Number(match[1]);
  const host = Number(match[2]);
  return subnet >= FIRST_SUBNET && subnet <= LAST_SUBNET && host >= FIRST_HOST && host <= LAST_HOST;
}

/**
 * Picks a loopback address for the pod with UID `uid`, unique among `taken`. Stable: the same UID and the same
 * taken set give the same address. `preferred` (the address the pod already has in its status or in the
 * runner's allocation file) wins when it is a pod address and free. Otherwise the search starts at a position
 * derived from a hash of the UID and probes linearly. Throws when all {@link POD_IP_CAPACITY} addresses are taken.
 * Pure.
 */
export function allocatePodIp(uid: string, taken: ReadonlySet<string>, preferred?: string): string {
  if (preferred !== undefined && isPodIp(preferred) && !taken.has(preferred)) return preferred;
  const start = createHash('sha256').update(uid).digest().readUInt32BE(0) % POD_IP_CAPACITY;
  for (let i = 0; i < POD_IP_CAPACITY; i++) {
    const ip = ipAt((start + i) % POD_IP_CAPACITY);
    if (!taken.has(ip)) return ip;
  }
  throw new Error(`pod-runner: all ${POD_IP_CAPACITY} pod addresses are in use`);
}
