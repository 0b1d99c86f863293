import { randomBytes } from 'node:crypto';

/**
 * The rules a generated password must meet.
 * - `url-safe`: 32 characters of base64url (`A–Z a–z 0–9 - _`), 192 random bits. Accepted as they are by Kafka SCRAM
 *   (no characters SASLprep maps or the JAAS line must escape), Redis ACL (`>password`, no spaces, safe in the
 *   `masterauth` line) and any URL, header or config file.
 * - `every-class`: the same 32 characters followed by `-Aa1`, so it holds a symbol, an upper- and a lower-case letter
 *   and a digit whatever the random part: the shape of OpenSearch's password rules (a
 *   `password_validation_regex` asking for each class, a minimum length; 36 characters also rate "strong").
 */
export type PasswordRules = 'url-safe' | 'every-class';

const RANDOM_BYTES = 24;
const EVERY_CLASS_SUFFIX = '-Aa1';

/** A new random password meeting `rules` (see {@link PasswordRules}); never the same twice. Never log it. */
export function generatePassword(rules: PasswordRules = 'url-safe'): string {
  const random = randomBytes(RANDOM_BYTES).toString('base64url');
  return rules === 'every-class' ? `${random}${EVERY_CLASS_SUFFIX}` : random;
}
