/** OpenSearchISMPolicy: we have no ISM kind, so nothing is output; the policy stays in OpenSearch untouched. */
import { NotConvertible } from './kind-context.ts';
import type { KindConverter } from './kind-context.ts';

/** Always refuses: the message says the ISM policy is not supported and stays in OpenSearch as it is. */
export const convertIsmPolicy: KindConverter = (input) => {
  const policyId = typeof input.spec['policyId'] === 'string' && input.spec['policyId'] !== '' ? input.spec['policyId'] : input.name;
  throw new NotConvertible(
    `ISM policies are not supported by this operator: nothing is output, and the policy ${policyId} stays in OpenSearch untouched ` +
      '(remove their CR only as the migration guide says, or their operator deletes it); manage it with the ISM API from now on',
  );
};
