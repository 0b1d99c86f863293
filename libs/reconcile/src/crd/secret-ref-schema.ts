/**
 * The schemas of the Secret references a cluster-scoped connection holds (a login and a CA), written once for
 * every operator: a connection names the Secret's namespace, since it has none of its own.
 */
import { Type } from '@sinclair/typebox';
import type { TObject, TString } from '@sinclair/typebox';

const namespace = (): TString => Type.String({ description: 'Namespace of the Secret.', minLength: 1 });
const name = (): TString => Type.String({ description: 'Name of the Secret.', minLength: 1 });

/** A Secret holding a username and a password, keys `username` and `password` unless named. Pure. */
export function loginSecretRef(description: string): TObject<{ namespace: TString; name: TString; usernameKey: TString; passwordKey: TString }> {
  return Type.Object(
    {
      namespace: namespace(),
      name: name(),
      usernameKey: Type.String({ description: 'Key of the username in the Secret.', default: 'username' }),
      passwordKey: Type.String({ description: 'Key of the password in the Secret.', default: 'password' }),
    },
    { description },
  );
}

/** A Secret holding PEM CA certificates under `key` (default `ca.crt`). Pure. */
export function caSecretRef(description: string): TObject<{ namespace: TString; name: TString; key: TString }> {
  return Type.Object(
    {
      namespace: namespace(),
      name: name(),
      key: Type.String({ description: 'Key of the PEM CA certificates in the Secret.', default: 'ca.crt' }),
    },
    { description },
  );
}
