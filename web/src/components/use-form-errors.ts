import { useState } from 'react';
import { ApiError } from '../lib/api.ts';

/**
 * A form's messages: one per field (beside it, gone once the field is edited) and the failure that belongs to no field
 * (FormModal shows it above the fields).
 */
export function useFormErrors() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const clear = (...fields: string[]) => setErrors((e) => (fields.some((f) => f in e) ? Object.fromEntries(Object.entries(e).filter(([f]) => !fields.includes(f))) : e));
  /** A refused submit: the server's field messages beside their fields, or else its message as the form's failure. */
  const refused = (err: unknown) => {
    if (err instanceof ApiError && Object.keys(err.fields).length) setErrors(err.fields);
    else setFailure(err instanceof Error ? err.message : String(err));
  };
  return { errors, setErrors, failure, setFailure, clear, refused };
}
