import type { PrinterColumn } from './crd.ts';

/** Options of {@link conditionColumn}. */
export interface ConditionColumnOptions {
  /** The header; default the condition type for `status` (e.g. `Ready`), `Reason` for `reason`, `Message` for `message`. */
  readonly name?: string;
  /** 0 (default) shows the column always; higher only with `-o wide`. */
  readonly priority?: number;
}

const HEADERS = { reason: 'Reason', message: 'Message' } as const;

/**
 * The printer column that shows one field of a status condition, `.status.conditions[?(@.type=="<type>")].<field>`,
 * e.g. `conditionColumn(READY_CONDITION)` for a `Ready` column or `conditionColumn(SYNCED_CONDITION, 'reason')`. Pure;
 * the keys come in the order the CRD files list them (name, type, priority, jsonPath).
 */
export function conditionColumn(type: string, field: 'status' | 'reason' | 'message' = 'status', options: ConditionColumnOptions = {}): PrinterColumn {
  return {
    name: options.name ?? (field === 'status' ? type : HEADERS[field]),
    type: 'string',
    ...(options.priority !== undefined && { priority: options.priority }),
    jsonPath: `.status.conditions[?(@.type=="${type}")].${field}`,
  };
}
