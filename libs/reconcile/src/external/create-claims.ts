/**
 * A write-ahead record of the creates a reconciler is about to make, kept outside the resources' status so that many
 * concurrent creates share one apiserver write (ADR 0007, addendum "the claims ledger"). For external systems whose
 * objects cannot carry a creation mark (an adapter's `marksCreator`), it replaces the `CreatePending`
 * status write before each create.
 */
/**
 * Durable claims "resource `uid` is about to create `externalName`", one per UID. The guarantee the reconciler
 * builds on: when {@link CreateClaims.claim} resolves `true`, the record is in the apiserver, and a later
 * {@link CreateClaims.confirm} (from any process) sees it until {@link CreateClaims.release} removes it.
 */
export interface CreateClaims {
  /**
   * Records the claim and resolves once it is durable: `true`; or `false` when the ledger cannot hold it (full),
   * and the caller must record the claim another way (the `CreatePending` status write). Concurrent claims share
   * writes. Rejects when the write fails; nothing may be created then.
   */
  claim(uid: string, externalName: string, signal?: AbortSignal): Promise<boolean>;
  /**
   * Whether `uid` claims `externalName` as far as this process knows (its own claims, durable or on their way, and
   * what it last read). Synchronous, cheap, may be stale: it can miss another process's claims. For deciding which
   * of several resources may manage a name.
   */
  holds(uid: string, externalName: string): boolean;
  /**
   * Whether `uid` durably claims `externalName`, from a read of the apiserver that starts after this call (unless
   * this process already knows the claim is durable): it sees every claim whose `claim` resolved before the call,
   * whichever process made it. Rejects when the read fails.
   */
  confirm(uid: string, externalName: string, signal?: AbortSignal): Promise<boolean>;
  /**
   * Drops the claim of `uid`, lazily: the removal goes out with a later write (batched). For when the resource's
   * status records its ownership, or the resource is gone. Never blocks, never rejects; a removal that fails is
   * retried with the next write.
   */
  release(uid: string): void;
}
