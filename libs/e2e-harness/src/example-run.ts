import type { KubernetesObject } from '@kubernetes/client-node';
import { isNotFound, requestFor } from '@domain-operators/reconcile';
import type { Client, ResourceType } from '@domain-operators/reconcile';
import { randomSuffix } from './cluster.ts';
import { exampleFiles, forTestRun, readManifests } from './examples.ts';
import { isCustomResource, typeOfExample, typesOfCrds } from './local-examples.ts';
import type { OperatorSystem } from './system.ts';
import type { ObjectWithConditions } from './wait.ts';

/** The field manager the example suites apply with. */
export const EXAMPLES_FIELD_MANAGER = 'e2e-examples';

/**
 * One e2e run's copy of `examples/<system>`, renamed by `forTestRun` so that it lives beside everybody else's
 * objects: every namespace `ex-<namespace>-<suffix>`, every cluster-scoped custom resource `ex-<name>-<suffix>`.
 * Knows the resource type of each object once {@link ExampleRun.useCrds} has been given the operator's CRDs.
 * Construction reads the files (throws on a missing folder or bad YAML) and makes no request.
 */
export class ExampleRun {
  readonly system: OperatorSystem;
  /** Every object of the folder, in file order, renamed. */
  readonly examples: readonly KubernetesObject[];
  /** The custom resources among them. */
  readonly resources: readonly KubernetesObject[];
  /** The names of the Namespaces they create. */
  readonly namespaces: readonly string[];
  #customTypes: ResourceType[] = [];

  constructor(system: OperatorSystem, suffix: string = randomSuffix()) {
    this.system = system;
    this.examples = forTestRun(readManifests(exampleFiles(system)), { namespace: (ns) => `ex-${ns}-${suffix}`, clusterScoped: (name) => `ex-${name}-${suffix}` });
    this.resources = this.examples.filter(isCustomResource);
    this.namespaces = this.examples.filter((object) => object.kind === 'Namespace').map((object) => object.metadata?.name ?? '');
  }

  /** Learns the custom resource types from the CRDs among `rendered` (e.g. an operator's `installation.rendered`). */
  useCrds(rendered: readonly KubernetesObject[]): void {
    this.#customTypes = typesOfCrds(rendered);
  }

  /** The resource type of an example object (Namespace, Secret or a custom resource); throws for any other kind. */
  typeOf(object: KubernetesObject): ResourceType<ObjectWithConditions> {
    return typeOfExample(object, this.#customTypes);
  }

  /** The one custom resource of `kind`; throws when there is none or more than one. */
  only(kind: string): KubernetesObject {
    const [first, ...more] = this.resources.filter((object) => object.kind === kind);
    if (first === undefined || more.length > 0) throw new Error(`examples/${this.system}: expected one ${kind}, found ${more.length + (first === undefined ? 0 : 1)}`);
    return first;
  }

  /** Applies `objects` (default: all, renamed) one after another in order with server-side apply, as `kubectl apply -f` would. */
  async apply(client: Client, objects: readonly KubernetesObject[] = this.examples): Promise<void> {
    for (const object of objects) {
      await client.patch(this.typeOf(object), requestFor(object), { type: 'apply', body: object, fieldManager: EXAMPLES_FIELD_MANAGER, force: true });
    }
  }

  /** Whether the object is gone from the apiserver (404); rejects on any other error. */
  async gone(client: Client, object: KubernetesObject): Promise<boolean> {
    try {
      await client.get(this.typeOf(object), requestFor(object));
      return false;
    } catch (err) {
      if (isNotFound(err)) return true;
      throw err;
    }
  }
}
