import type { KubernetesObject } from '@kubernetes/client-node';
import type { Clock } from '../core/clock.ts';
import { sleep, systemClock } from '../core/clock.ts';
import { isConflict } from '../core/errors.ts';
import { apiVersionOf } from './resource-type.ts';
import type { Request } from '../core/request.ts';
import type { ListScope, ResourceType } from './resource-type.ts';
import { collectionPath, objectPath } from './resource-type.ts';
import type { RestTransport } from './rest.ts';

/** One JSON-patch operation (RFC 6902). */
export type JsonPatchOperation =
  | { readonly op: 'add' | 'replace' | 'test'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string }
  | { readonly op: 'move' | 'copy'; readonly from: string; readonly path: string };

/** A patch in one of the three forms the apiserver accepts. */
export type Patch =
  | { readonly type: 'merge'; readonly body: unknown }
  | { readonly type: 'json'; readonly operations: readonly JsonPatchOperation[] }
  | {
      /** Server-side apply: `body` is the full intent of `fieldManager`, with apiVersion, kind and name. */
      readonly type: 'apply';
      readonly body: unknown;
      readonly fieldManager: string;
      /** Take ownership of fields other managers own (controllers usually want true). */
      readonly force: boolean;
    };

/** A page of a list. */
export interface ListPage<T> {
  readonly items: readonly T[];
  readonly resourceVersion: string;
  /** Present when there are more pages. */
  readonly continue: string | undefined;
}

/** Options for {@link Client.list}. */
export interface ListOptions extends ListScope {
  readonly limit?: number;
  readonly continue?: string;
  readonly resourceVersion?: string;
  readonly signal?: AbortSignal;
}

/** Options for writes. */
export interface WriteOptions {
  readonly fieldManager?: string;
  readonly dryRun?: boolean;
  readonly signal?: AbortSignal;
}

/** Options for {@link Client.delete}. */
export interface DeleteOptions {
  readonly propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  readonly gracePeriodSeconds?: number;
  /** Delete only if the object still has this UID / resourceVersion. */
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly signal?: AbortSignal;
}

/** The read half of a client; the cache-backed Store answers the same interface (possibly stale). */
export interface ObjectReader<T extends KubernetesObject> {
  /** The object, or `undefined` when it does not exist. */
  get(request: Request): Promise<T | undefined>;
  /** Every object in scope. */
  list(scope?: ListScope): Promise<readonly T[]>;
}

/**
 * One adapter for any kind, namespaced or cluster-scoped, over a {@link RestTransport}. Every method talks to
 * the apiserver (no cache) and rejects with `KubeApiError` on a non-2xx answer; use the guards in `errors.ts`
 * (`isNotFound`, `isConflict`, …). Stateless and safe to share.
 */
export class Client {
  readonly #rest: RestTransport;

  constructor(deps: { readonly rest: RestTransport }) {
    this.#rest = deps.rest;
  }

  /** Reads one object. Rejects with a 404 `KubeApiError` when it does not exist. */
  async get<T extends KubernetesObject>(type: ResourceType<T>, request: Request, signal?: AbortSignal): Promise<T> {
    return (await this.#rest.json({ method: 'GET', path: objectPath(type, request.namespace, request.name), ...(signal && { signal }) })) as T;
  }

  /** Reads one page of a list. Items get `apiVersion` and `kind` filled in (the API leaves them out of lists). */
  async list<T extends KubernetesObject>(type: ResourceType<T>, options: ListOptions = {}): Promise<ListPage<T>> {
    const body = (await this.#rest.json({
      method: 'GET',
      path: collectionPath(type, options.namespace),
      query: {
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        limit: options.limit,
        continue: options.continue,
        resourceVersion: options.resourceVersion,
      },
      ...(options.signal && { signal: options.signal }),
    })) as { items?: T[]; metadata?: { resourceVersion?: string; continue?: string } };
    const apiVersion = apiVersionOf(type);
    return {
      items: (body.items ?? []).map((item) => ({ ...item, apiVersion, kind: type.kind })),
      resourceVersion: body.metadata?.resourceVersion ?? '',
      continue: body.metadata?.continue === '' ? undefined : body.metadata?.continue,
    };
  }

  /** Reads every page of a list (pages of `limit`, default 500). */
  async listAll<T extends KubernetesObject>(type: ResourceType<T>, options: Omit<ListOptions, 'continue'> = {}): Promise<T[]> {
    const items: T[] = [];
    let token: string | undefined;
    do {
      const page = await this.list(type, { ...options, limit: options.limit ?? 500, ...(token !== undefined && { continue: token }) });
      items.push(...page.items);
      token = page.continue;
    } while (token !== undefined);
    return items;
  }

  /** Creates an object. Rejects with 409 AlreadyExists when the name is taken. */
  async create<T extends KubernetesObject>(type: ResourceType<T>, object: T, options: WriteOptions = {}): Promise<T> {
    return (await this.#rest.json({
      method: 'POST',
      path: collectionPath(type, type.namespaced ? object.metadata?.namespace : undefined),
      query: writeQuery(options),
      body: object,
      ...(options.signal && { signal: options.signal }),
    })) as T;
  }

  /** Replaces an object (PUT); its `metadata.resourceVersion` makes it a compare-and-swap (409 Conflict). */
  async replace<T extends KubernetesObject>(type: ResourceType<T>, object: T, options: WriteOptions = {}): Promise<T> {
    return (await this.#rest.json({
      method: 'PUT',
      path: objectPath(type, type.namespaced ? object.metadata?.namespace : undefined, nameOf(object)),
      query: writeQuery(options),
      body: object,
      ...(options.signal && { signal: options.signal }),
    })) as T;
  }

  /** Patches an object (merge, JSON or server-side apply). */
  patch<T extends KubernetesObject>(type: ResourceType<T>, request: Request, patch: Patch, options: WriteOptions = {}): Promise<T> {
    return this.#patch(type, request, patch, options, undefined);
  }

  /** Patches the `status` subresource: spec and metadata changes in `patch` are ignored by the apiserver. */
  patchStatus<T extends KubernetesObject>(type: ResourceType<T>, request: Request, patch: Patch, options: WriteOptions = {}): Promise<T> {
    return this.#patch(type, request, patch, options, 'status');
  }

  /** Deletes an object. Rejects with 404 when it is already gone (use `isNotFound` to treat that as success). */
  async delete(type: ResourceType, request: Request, options: DeleteOptions = {}): Promise<void> {
    await this.#rest.json({
      method: 'DELETE',
      path: objectPath(type, request.namespace, request.name),
      body: {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        ...(options.propagationPolicy && { propagationPolicy: options.propagationPolicy }),
        ...(options.gracePeriodSeconds !== undefined && { gracePeriodSeconds: options.gracePeriodSeconds }),
        ...(options.preconditions && { preconditions: options.preconditions }),
      },
      ...(options.signal && { signal: options.signal }),
    });
  }

  /** A live {@link ObjectReader} for one type (every call is a request). */
  reader<T extends KubernetesObject>(type: ResourceType<T>): ObjectReader<T> {
    return {
      get: async (request) => {
        try {
          return await this.get(type, request);
        } catch (err) {
          if ((err as { status?: unknown }).status === 404) return undefined;
          throw err;
        }
      },
      list: (scope = {}) => this.listAll(type, scope),
    };
  }

  async #patch<T extends KubernetesObject>(
    type: ResourceType<T>,
    request: Request,
    patch: Patch,
    options: WriteOptions,
    subresource: string | undefined,
  ): Promise<T> {
    const fieldManager = patch.type === 'apply' ? patch.fieldManager : options.fieldManager;
    return (await this.#rest.json({
      method: 'PATCH',
      path: objectPath(type, request.namespace, request.name, subresource),
      query: { ...writeQuery({ ...options, ...(fieldManager !== undefined && { fieldManager }) }), ...(patch.type === 'apply' && { force: patch.force }) },
      body: patch.type === 'json' ? patch.operations : patch.body,
      contentType: PATCH_CONTENT_TYPES[patch.type],
      ...(options.signal && { signal: options.signal }),
    })) as T;
  }
}

const PATCH_CONTENT_TYPES = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

function writeQuery(options: WriteOptions): Record<string, string | undefined> {
  return { fieldManager: options.fieldManager, dryRun: options.dryRun === true ? 'All' : undefined };
}

function nameOf(object: KubernetesObject): string {
  const name = object.metadata?.name;
  if (name === undefined) throw new Error('object has no metadata.name');
  return name;
}

/** Options for {@link retryOnConflict}. client-go's DefaultRetry: 5 attempts, 10 ms apart, jittered. */
export interface RetryOnConflictOptions {
  readonly attempts?: number;
  readonly delayMs?: number;
  readonly clock?: Clock;
  readonly random?: () => number;
}

/**
 * Runs `update` (which should read fresh, modify and write) again while it fails with a 409 Conflict, up to
 * `attempts` times in all, waiting `delayMs` (±10 % jitter) in between. Any other error, or the last conflict,
 * is rethrown.
 */
export async function retryOnConflict<R>(update: () => Promise<R>, options: RetryOnConflictOptions = {}): Promise<R> {
  const attempts = options.attempts ?? 5;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  for (let attempt = 1; ; attempt++) {
    try {
      return await update();
    } catch (err) {
      if (!isConflict(err) || attempt >= attempts) throw err;
      await sleep(clock, (options.delayMs ?? 10) * (0.9 + 0.2 * random()));
    }
  }
}
