// Fakes of our own interfaces for external-resource unit tests: an in-memory external system (the adapter), a tiny
// in-memory stand-in for the objects of one kind (status writes, finalizer, claims) and an event recorder.
// Test-only; exported as @domain-operators/reconcile/testing.
import type { KubernetesObject, V1ObjectMeta } from '@kubernetes/client-node';
import type { EventInput, Recorder } from '../observability/events.ts';
import type { DeleteTarget, ExternalAdapter, ExternalContext, ExternalCreation, ExternalObservation, ExternalStatusFields, ExternalUpdate } from '../external/external-adapter.ts';
import type { ClaimIndex } from '../external/external-claims.ts';
import { byExternalName } from '../external/external-claims.ts';
import type { FinalizerHandlers } from '../controller/finalizer.ts';
import type { FinalizerRunner, StatusWriter } from '../external/external-resource.ts';
import { Result } from '../core/result.ts';
import type { DesiredStatus } from '../status/status.ts';
import { statusChange } from '../status/status.ts';

/** The desired spec of the fake system's objects: a name and a flat config map. */
export interface FakeSpec {
  readonly name: string;
  readonly config: Readonly<Record<string, string>>;
}

/** What the fake system reports as observed: the stored config. */
export interface FakeObserved {
  readonly config: Readonly<Record<string, string>>;
}

/** One adapter call, as recorded by {@link InMemoryExternalSystem}. */
export interface ExternalCall {
  readonly op: 'observe' | 'create' | 'update' | 'delete';
  readonly name: string;
}

type Op = ExternalCall['op'];

/** An error as a backend adapter throws it: a CamelCase `reason` the reconciler surfaces as the condition reason. */
export class FakeBackendError extends Error {
  override readonly name = 'FakeBackendError';
  readonly reason: string;

  constructor(message: string, reason: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * An external system in memory, behind the adapter interface: objects are name → config. Records every call; a
 * failure can be armed per operation. `editByHand` / `deleteByHand` / `createByHand` change it the way a human would
 * (not recorded as adapter calls). `config` values named `password` are compared but never shown in a diff.
 */
export class InMemoryExternalSystem implements ExternalAdapter<KubernetesObject, FakeSpec, FakeObserved> {
  readonly objects = new Map<string, Record<string, string>>();
  readonly calls: ExternalCall[] = [];
  readonly #failures = new Map<Op, Error>();
  /** When true, `observe` and `create` report `{ keys: <number of config keys seen> }` as status fields. */
  offerStatusFields = false;
  /** When true, `intent` asks for `{ intended: <the desired config keys, sorted> }` to be written ahead of a create or update. */
  recordIntent = false;
  /** The `context.object` each create and update saw, in call order (to check what the adapter could read). */
  readonly seen: KubernetesObject[] = [];
  /** When true, `create` marks each object with the creating resource's UID and `observe` reports it as `createdBy`. */
  marksCreator = false;
  /** Object name → the UID its mark names. */
  readonly marks = new Map<string, string>();

  /** Every later call of `op` throws `error` until {@link heal}. */
  fail(op: Op, error: Error): void {
    this.#failures.set(op, error);
  }

  heal(): void {
    this.#failures.clear();
  }

  /** Calls other than observe. */
  writes(): ExternalCall[] {
    return this.calls.filter((c) => c.op !== 'observe');
  }

  createByHand(name: string, config: Record<string, string>): void {
    this.objects.set(name, { ...config });
  }

  editByHand(name: string, config: Record<string, string>): void {
    this.objects.set(name, { ...this.objects.get(name), ...config });
  }

  deleteByHand(name: string): void {
    this.objects.delete(name);
  }

  observe(desired: FakeSpec, _context: ExternalContext<KubernetesObject>): Promise<ExternalObservation<FakeObserved>> {
    this.#enter('observe', desired.name);
    const config = this.objects.get(desired.name);
    if (config === undefined) return Promise.resolve({ exists: false });
    const diff: string[] = [];
    for (const key of new Set([...Object.keys(desired.config), ...Object.keys(config)])) {
      const want = desired.config[key];
      const have = config[key];
      if (want === have) continue;
      diff.push(key === 'password' ? 'password: differs' : `${key}: want ${want ?? '(unset)'}, have ${have ?? '(unset)'}`);
    }
    const createdBy = this.marksCreator ? this.marks.get(desired.name) : undefined;
    return Promise.resolve({
      exists: true,
      upToDate: diff.length === 0,
      diff,
      observed: { config: { ...config } },
      ...this.#offer(Object.keys(config).length),
      ...(createdBy === undefined ? {} : { createdBy }),
    });
  }

  create(desired: FakeSpec, context: ExternalContext<KubernetesObject>): Promise<ExternalCreation> {
    this.#enter('create', desired.name);
    this.seen.push(context.object);
    if (this.objects.has(desired.name)) throw new FakeBackendError(`${desired.name} already exists`, 'AlreadyExistsInBackend');
    this.objects.set(desired.name, { ...desired.config });
    if (this.marksCreator) this.marks.set(desired.name, context.object.metadata?.uid ?? '');
    return Promise.resolve(this.#offer(Object.keys(desired.config).length));
  }

  intent(desired: FakeSpec): ExternalStatusFields | undefined {
    return this.recordIntent ? { intended: Object.keys(desired.config).sort() } : undefined;
  }

  #offer(keys: number): { readonly status?: ExternalStatusFields } {
    return this.offerStatusFields ? { status: { keys } } : {};
  }

  update(desired: FakeSpec, _observed: FakeObserved, context: ExternalContext<KubernetesObject>): Promise<ExternalUpdate> {
    this.#enter('update', desired.name);
    this.seen.push(context.object);
    this.objects.set(desired.name, { ...desired.config });
    return Promise.resolve({});
  }

  delete(target: DeleteTarget<FakeSpec>, _context: ExternalContext<KubernetesObject>): Promise<void> {
    this.#enter('delete', target.externalName);
    this.objects.delete(target.externalName);
    return Promise.resolve();
  }

  #enter(op: Op, name: string): void {
    this.calls.push({ op, name });
    const failure = this.#failures.get(op);
    if (failure !== undefined) throw failure;
  }
}

/**
 * The objects of one kind, held in memory the way the apiserver would hold them for these tests: status merge
 * patches, a finalizer that works as finalizer.ts's four cases (without the force-delete annotation) and releases
 * like `releaseFinalizer`, deletion that waits for finalizers, and a claim index
 * over external names. `current(uid)` is what a reconcile gets (a fresh copy).
 */
export class FakeObjects<T extends KubernetesObject> {
  readonly #objects = new Map<string, T>();
  readonly #finalizer: string;
  statusWrites = 0;
  /** How often `finalizer.release` removed the finalizer. */
  finalizerReleases = 0;
  #resourceVersion = 1;

  constructor(finalizer: string) {
    this.#finalizer = finalizer;
  }

  put(object: T): void {
    this.#objects.set(uidOf(object), structuredClone(withMeta(object, { resourceVersion: String(this.#resourceVersion++) })));
  }

  has(uid: string): boolean {
    return this.#objects.has(uid);
  }

  /** A fresh copy of the stored object; throws when it is gone. */
  current(uid: string): T {
    const object = this.#objects.get(uid);
    if (object === undefined) throw new Error(`no object with uid ${uid}`);
    return structuredClone(object);
  }

  /** Changes the stored object (a user's edit); bumps `generation` when `spec` changes. */
  edit(uid: string, change: (object: T) => T): void {
    const before = this.current(uid);
    const after = change(structuredClone(before));
    const specChanged = JSON.stringify((before as { spec?: unknown }).spec) !== JSON.stringify((after as { spec?: unknown }).spec);
    const generation = (before.metadata?.generation ?? 1) + (specChanged ? 1 : 0);
    this.put(withMeta(after, { generation }));
  }

  /** A delete request: sets `deletionTimestamp`, or removes the object at once when it has no finalizers. */
  delete(uid: string): void {
    const object = this.current(uid);
    if ((object.metadata?.finalizers ?? []).length === 0) this.#objects.delete(uid);
    else this.put(withMeta(object, { deletionTimestamp: new Date('2026-12-01T00:00:00Z') }));
  }

  readonly statusWriter: StatusWriter<T> = {
    patchStatus: (object: T, desired: DesiredStatus, now: Date): Promise<T | undefined> => {
      const change = statusChange(object, desired, now);
      if (change === undefined) return Promise.resolve(undefined);
      const stored = this.current(uidOf(object));
      this.statusWrites++;
      this.put({ ...stored, status: { ...(stored as { status?: object }).status, ...change } });
      return Promise.resolve(this.current(uidOf(object)));
    },
  };

  readonly finalizer: FinalizerRunner<T> = {
    run: async (object: T, handlers: Omit<FinalizerHandlers<T>, 'finalizer'>): Promise<Result> => {
      const finalizers = object.metadata?.finalizers ?? [];
      const has = finalizers.includes(this.#finalizer);
      const deleting = object.metadata?.deletionTimestamp != null;
      if (!deleting) {
        if (has) return handlers.apply(object);
        const stored = this.current(uidOf(object));
        this.put(withMeta(stored, { finalizers: [...(stored.metadata?.finalizers ?? []), this.#finalizer] }));
        return handlers.apply(this.current(uidOf(object)));
      }
      if (!has) return Result.done();
      const result = await handlers.cleanup(object);
      if (result.kind !== 'done') return result;
      const stored = this.current(uidOf(object));
      const left = (stored.metadata?.finalizers ?? []).filter((f) => f !== this.#finalizer);
      if (left.length === 0) this.#objects.delete(uidOf(object));
      else this.put(withMeta(stored, { finalizers: left }));
      return Result.done();
    },
    release: (object: T): Promise<T> => {
      if (!(object.metadata?.finalizers ?? []).includes(this.#finalizer)) return Promise.resolve(object);
      const stored = this.current(uidOf(object));
      this.finalizerReleases++;
      this.put(withMeta(stored, { finalizers: (stored.metadata?.finalizers ?? []).filter((f) => f !== this.#finalizer) }));
      return Promise.resolve(this.current(uidOf(object)));
    },
  };

  /** A claim index over the stored objects, as a Store index built with `byExternalName(externalNameOf)` would be. */
  claims(externalNameOf: (object: T) => string): ClaimIndex<T> {
    const index = byExternalName(externalNameOf);
    return { claimants: (name) => [...this.#objects.values()].filter((o) => index(o).includes(name)).map((o) => structuredClone(o)) };
  }
}

/** Records events in memory. */
export class RecordingRecorder implements Recorder {
  readonly events: (EventInput & { readonly regarding: string })[] = [];

  record(regarding: KubernetesObject, event: EventInput): void {
    this.events.push({ ...event, regarding: regarding.metadata?.name ?? '' });
  }
}

/** `object` with `patch` merged into its metadata (a copy; client-node's metadata type is a class, hence no spread). */
export function withMeta<T extends KubernetesObject>(object: T, patch: Partial<V1ObjectMeta>): T {
  return { ...object, metadata: Object.assign({}, object.metadata, patch) };
}

function uidOf(object: KubernetesObject): string {
  const uid = object.metadata?.uid;
  if (uid === undefined) throw new Error('test object without uid');
  return uid;
}
